# What the language environment's Python holds, for scripts/languages.sh (which makes it) and
# scripts/prefetch.sh (which fetches it early). Sourced, not run.

# The newest Python SDK on PyPI, which publishes Pulumi's releases later than the Go module proxy
# (the engine's own release when PyPI has it).
python_pulumi_version=3.272.0

# pulumi of the version above, the Python SDK's other requirements (its setup.py's
# install_requires, read from it: the tests install the SDK without them), and what builds the SDK
# (`build` makes the release's wheel and sdist, PEP 517).
sdk_requirements() {
  sed -n '/install_requires=\[/,/\]/p' "$REPO_ROOT/sdk/python/setup.py" | grep -o "'[^']*'" | tr -d "'" | grep -v '^pulumi[<>=]'
}
python_packages=("pulumi==$python_pulumi_version")
while IFS= read -r requirement; do python_packages+=("$requirement"); done < <(sdk_requirements)
python_packages+=(setuptools wheel build)

# The marker of a complete environment names what it holds: a change to the list gets a new name,
# so machines set up before it add what is new.
python_environment_marker() {
  echo ".complete-$python_pulumi_version-$(printf '%s\n' "${python_packages[@]}" | sha256sum | cut -c1-12)"
}
