"""github_env.py EXTMEM_RUN ACTION_LOCAL WORK_DIR: extmem-run --print-env as GitHub reads it.

The action appends `extmem-run --print-env` to $GITHUB_ENV (run-environment: 'true'), and
GitHub's runner reads that file line by line: an inherited value with a line break, written as
a NAME=value line, would set a variable of its own (an LD_PRELOAD). The file is read here with
scripts/action-local.py's parser, which follows the runner's (checked first, on the runner's
cases), and must set exactly what extmem-run sets for a program it runs, values whole, and
nothing else. XDG_CONFIG_DIRS and XDG_DATA_DIRS entries with a space and a '*' (one that would
match folders) reach VK_LAYER_PATH as they are. Exit status 0 when every check passes."""
import importlib.util
import json
import os
import shutil
import subprocess
import sys

run, action_local, work = sys.argv[1:4]
sys.dont_write_bytecode = True  # no __pycache__ in the source tree's scripts/
spec = importlib.util.spec_from_file_location("action_local", action_local)
al = importlib.util.module_from_spec(spec)
spec.loader.exec_module(al)

failures = 0
checks = 0


def check(ok, what):
    global failures, checks
    checks += 1
    print(f"{'ok' if ok else 'FAILED'}: {what}", flush=True)
    if not ok:
        failures += 1


# ---- the parser, on the runner's rules (actions/runner, SetEnvFileCommand, on Linux) ----
def parsed(text):
    try:
        return al.parse_file_command(text)
    except al.Failure as e:
        return f"refused: {e}"


check(parsed("A=1\nB=x=y\n") == [("A", "1"), ("B", "x=y")], "NAME=value lines; the value keeps later '='")
check(parsed("\n\nA=1\n\n") == [("A", "1")], "empty lines are skipped")
check(parsed("A=1") == [("A", "1")], "a last line without a line break")
check(parsed("A<<EOF\nline 1\nline 2\nEOF\nB=2\n") == [("A", "line 1\nline 2"), ("B", "2")],
      "NAME<<DELIMITER: the lines up to the delimiter, without the last line break")
check(parsed("A<<EOF\nEOF\n") == [("A", "")], "an empty multi-line value")
check(parsed("A<<EOF\n\nx\n\nEOF\n") == [("A", "\nx\n")], "empty lines inside a multi-line value are kept")
check(parsed("A<<EOF\nEOF \nEOF") == [("A", "EOF ")], "only a line exactly the delimiter ends the value")
check(parsed("A=x<<y\n") == [("A", "x<<y")], "'=' before '<<': a NAME=value line")
check(parsed("A<<E=F\nv\nE=F\n") == [("A", "v")], "'<<' before '=': a delimiter with '=' in it")
check(parsed("A=1\r\nB=2\r\n") == [("A", "1\r"), ("B", "2\r")], "a carriage return ends no line (Linux)")
check(parsed("B<<EOF\r\nv\r\nEOF\r\n") == [("B", "v\r")], "a delimiter ending in a carriage return")
check(str(parsed("A<<EOF\nv\n")).startswith("refused"), "a delimiter never found is refused")
check(str(parsed("<<EOF\nv\nEOF\n")).startswith("refused"), "an empty name is refused")
check(str(parsed("A<<\nv\n\n")).startswith("refused"), "an empty delimiter is refused")
check(str(parsed("just words\n")).startswith("refused"), "a line with neither form is refused")

# ---- extmem-run's output, read that way ----
evil = "\nLD_PRELOAD=/tmp/evil.so"
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
# Folders a '*' would match if it were expanded: two, so a glob shows as two entries.
for sub in ("one", "two"):
    os.makedirs(os.path.join(work, "glob", sub, "share"))
starred = os.path.join(work, "glob", "*", "share")
spaced = os.path.join(work, "a folder", "share")
# A Vulkan driver manifest whose name has a line break: VK_DRIVER_FILES and VK_ICD_FILENAMES.
icd = os.path.join(work, "icd" + evil.replace("/", "_") + ".json")
with open(icd, "w") as f:
    f.write('{ "file_format_version": "1.0.0", "ICD": { "library_path": "libvulkan_none.so", "api_version": "1.1.0" } }\n')

base = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD",)}
cases = {
    "LD_LIBRARY_PATH inherited with a line break": ({"LD_LIBRARY_PATH": "/opt/lib" + evil}, []),
    "VK_INSTANCE_LAYERS inherited with a line break": ({"VK_INSTANCE_LAYERS": "VK_LAYER_other" + evil}, ["--vulkan-layer"]),
    "VK_LOADER_LAYERS_ENABLE inherited with a line break": ({"VK_LOADER_LAYERS_ENABLE": "x" + evil}, ["--vulkan-layer"]),
    "VK_ADD_LAYER_PATH inherited with a line break": ({"VK_ADD_LAYER_PATH": "/opt/layers" + evil}, ["--vulkan-layer"]),
    "VK_LAYER_PATH inherited with a line break": ({"VK_LAYER_PATH": "/opt/layers" + evil}, ["--vulkan-layer"]),
    "XDG_DATA_DIRS with a line break (into VK_LAYER_PATH)": ({"XDG_DATA_DIRS": "/usr/share" + evil}, ["--vulkan-layer"]),
    "XDG_CONFIG_DIRS with a line break (into VK_LAYER_PATH)": ({"XDG_CONFIG_DIRS": "/etc/xdg" + evil}, ["--vulkan-layer"]),
    "a carriage return in LD_LIBRARY_PATH": ({"LD_LIBRARY_PATH": "/opt/lib\rLD_PRELOAD=/tmp/evil.so"}, []),
    "--vulkan-icd with a line break in its name (into EXTMEM_VK_DRIVER_FILE)": ({}, ["--vulkan-icd", icd]),
    "--vulkan-icd with a line break in its name, --vulkan-layer (into VK_DRIVER_FILES)":
        ({}, ["--vulkan-layer", "--vulkan-icd", icd]),
    "XDG_DATA_DIRS and XDG_CONFIG_DIRS entries with a space and a '*'":
        ({"XDG_DATA_DIRS": f"{spaced}:{starred}:/usr/share", "XDG_CONFIG_DIRS": f"{starred}:{spaced}"},
         ["--vulkan-layer"]),
}
dump = [sys.executable, "-c", "import json, os; print(json.dumps(dict(os.environ)))"]
for what, (extra, options) in cases.items():
    env = dict(base, **extra)
    # Bytes, decoded as they are: text mode would turn a carriage return into a line break.
    out = subprocess.run([run, "--print-env"] + options, env=env, capture_output=True)
    text = out.stdout.decode()
    if out.returncode != 0:
        check(False, f"{what}: extmem-run --print-env exited with {out.returncode}: {out.stderr.decode().strip()}")
        continue
    got = parsed(text)
    if isinstance(got, str):
        check(False, f"{what}: $GITHUB_ENV {got}\n{text}")
        continue
    names = [n for n, _ in got]
    check("LD_PRELOAD" not in names, f"{what}: no LD_PRELOAD in $GITHUB_ENV"
          + ("" if "LD_PRELOAD" not in names else f" (it sets {' '.join(names)})"))
    # What a program run by extmem-run gets: the same variables, the same values.
    prog = subprocess.run([run] + options + ["--"] + dump, env=env, capture_output=True, text=True)
    if prog.returncode != 0:
        check(False, f"{what}: extmem-run -- python3 exited with {prog.returncode}: {prog.stderr.strip()}")
        continue
    given = json.loads(prog.stdout)
    same = all(given.get(n) == v for n, v in got)
    check(same, f"{what}: $GITHUB_ENV sets what extmem-run gives a program")
    if not same:
        for n, v in got:
            if given.get(n) != v:
                print(f"  {n}: $GITHUB_ENV {v!r}\n  {' ' * len(n)}  program {given.get(n)!r}")
    if "XDG_DATA_DIRS" in extra and "*" in extra["XDG_DATA_DIRS"]:
        layer_path = dict(got).get("VK_LAYER_PATH", "").split(":")
        for d in (spaced, starred):
            want = d + "/vulkan/explicit_layer.d"
            check(layer_path.count(want) == 2, f"{what}: VK_LAYER_PATH has {want} (from both lists)")
        check(not any("/glob/one/" in p or "/glob/two/" in p for p in layer_path),
              f"{what}: the '*' is not expanded")
    for xdg in ("XDG_DATA_DIRS", "XDG_CONFIG_DIRS"):
        if evil in extra.get(xdg, ""):
            check(extra[xdg] + "/vulkan/explicit_layer.d" in dict(got).get("VK_LAYER_PATH", ""),
                  f"{what}: the entry reaches VK_LAYER_PATH whole")

print(f"github_env: {checks - failures} of {checks} checks passed")
sys.exit(1 if failures else 0)
