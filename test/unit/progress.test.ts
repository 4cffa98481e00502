/** Where an operation's words go: the engine's log of its own process, on the row of the request being served. */
import { describe, expect, it, vi } from "vitest";
import { createProgress, type EngineLog, type Severity } from "../../provider/progress";

interface Logged {
  urn: string;
  severity: Severity;
  message: string;
  ephemeral: boolean;
}

function recordingLog(): EngineLog & { lines: Logged[] } {
  const lines: Logged[] = [];
  return {
    lines,
    log: async (urn, severity, message, ephemeral) => void lines.push({ urn, severity, message, ephemeral }),
  };
}

describe("a process's progress", () => {
  it("sends a request's statuses and notes to its own engine log, on that request's resource", () => {
    const progress = createProgress();
    const engine = recordingLog();
    progress.useEngineLog(engine);
    progress.withinRequest("urn:pulumi:dev::p::etl:index:Cluster::compute", "creating", () => {
      progress.reporter.status("cluster 7 pending");
      progress.reporter.note("cluster create: found cluster 7 created by it, adopting it", "warning");
    });
    expect(engine.lines).toEqual([
      { urn: "urn:pulumi:dev::p::etl:index:Cluster::compute", severity: "info", message: "creating: cluster 7 pending", ephemeral: true },
      {
        urn: "urn:pulumi:dev::p::etl:index:Cluster::compute",
        severity: "warning",
        message: "cluster create: found cluster 7 created by it, adopting it",
        ephemeral: false,
      },
    ]);
  });

  it("is not shared: another process's request and engine log are not this one's, which says its lines on stdout", () => {
    const served = createProgress();
    const other = createProgress();
    const engine = recordingLog();
    served.useEngineLog(engine);
    const printed: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: string) => void printed.push(line));
    try {
      served.withinRequest("urn:pulumi:dev::p::etl:index:JobRun::nightly", "creating", () => other.reporter.status("job 4 queued"));
      served.reporter.status("job 5 queued");
    } finally {
      spy.mockRestore();
    }
    expect(engine.lines).toEqual([]);
    expect(printed).toEqual(["job 4 queued", "job 5 queued"]);
  });
});
