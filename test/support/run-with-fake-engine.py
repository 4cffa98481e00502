"""
Runs a Pulumi Python program with Pulumi's mocks in place of the engine, from the program's folder,
and prints, as one JSON document, each resource it declares: its type, its name in the stack, whether
it is protected, and its inputs as the SDK sends them to the engine (secrets unwrapped). A
resource's id is `<type>/<name>`, so a reference to it reads as that text.

usage: python run-with-fake-engine.py PROGRAM_DIR PROJECT
The program's configuration comes from PULUMI_CONFIG, as the language host hands it over.
"""
import json
import os
import runpy
import sys

import pulumi
from pulumi.runtime import mocks, rpc
from pulumi.runtime.sync_await import _sync_await
from pulumi.runtime.stack import run_pulumi_func

declared = []


def unwrapped(value):
    if isinstance(value, dict):
        if value.get(rpc._special_sig_key) == rpc._special_secret_sig:
            return unwrapped(value["value"])
        return {key: unwrapped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [unwrapped(item) for item in value]
    return value


class Recording(mocks.MockMonitor):
    def RegisterResource(self, request):
        response = super().RegisterResource(request)
        if request.type != "pulumi:pulumi:Stack":
            inputs = unwrapped(rpc.deserialize_properties(request.object))
            declared.append({"type": request.type, "name": request.name, "protect": request.protect, "inputs": inputs})
        return response


class Fake(pulumi.runtime.Mocks):
    def new_resource(self, args):
        return [f"{args.typ}/{args.name}", args.inputs]

    def call(self, args):
        return {}


def main(program_dir, project):
    os.chdir(program_dir)
    sys.path.insert(0, program_dir)
    pulumi.runtime.set_mocks(Fake(), project=project, stack="test", preview=False, monitor=Recording(Fake()))
    _sync_await(run_pulumi_func(lambda: runpy.run_path(os.path.join(program_dir, "__main__.py"), run_name="__main__")))
    json.dump(declared, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
