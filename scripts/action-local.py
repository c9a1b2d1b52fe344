#!/usr/bin/env python3
"""Runs a GitHub workflow job that uses extmem's action (action.yml) on this machine, outside
GitHub: the same commands in the same order, read from the files themselves.

    scripts/action-local.py [--workflow FILE] [--job NAME] [--work DIR] [--with NAME=VALUE]...

By default the job is `interop` of .github/workflows/example-user.yml: the action installs
extmem, then the user's project (examples/user-project) is built and run with extmem-run.
`--with` overrides the action's inputs: scripts/test.sh points `build-dir` at its own build, so
that the action's configure, build and install steps reuse it instead of building extmem anew.

What differs from GitHub, and why:
- actions/checkout: this tree is the checkout (the workspace is the repository's root);
- actions/cache: there is no cache here, so it always misses and the steps after it build;
- actions/upload-artifact: there is no artifact store here: the files stay where they are, and
  the step says which (or that there are none);
- the runner's files ($GITHUB_OUTPUT, $GITHUB_ENV, $GITHUB_PATH: new ones for each step, read
  when it ends) and $RUNNER_TEMP live under --work; `run` steps run as GitHub runs them:
  bash --noprofile --norc -eo pipefail. $GITHUB_ENV and $GITHUB_OUTPUT are read as GitHub's
  runner reads them on Linux (NAME=value lines and the NAME<<DELIMITER form, parse_file_command);
  `--parse-env FILE` prints what a $GITHUB_ENV file sets, as JSON, for the tests.
Only the expressions these files use are understood (inputs, steps' outputs, github.action_path,
github.workspace, runner.temp, runner.os, and `==` / `!=` against a string or `always()` in
`if`); any other
stops the run with its text, so the two cannot drift apart unnoticed.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

try:
    import yaml
except ImportError:  # needed for the workflow files only: --parse-env and the parser's users work without it
    yaml = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class Failure(Exception):
    pass


def parse_file_command(text, what="$GITHUB_ENV"):
    """The (name, value) pairs a $GITHUB_ENV or $GITHUB_OUTPUT file sets, in order, read as
    GitHub's runner reads them on Linux (actions/runner, SetEnvFileCommand): lines end at "\n"
    only (a carriage return is part of the value); empty lines are skipped; a line is NAME=value
    when its first "=" comes before its first "<<", else NAME<<DELIMITER, whose value is the
    lines after it up to one that is exactly DELIMITER, without the last line's "\n". What the
    runner refuses (a line with neither, an empty name or delimiter, a delimiter never found)
    fails the step here too; an empty NAME= name, which the runner lets through, is refused."""
    pairs = []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the last line's "\n" ends it; it starts no other
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line == "":
            continue
        eq, heredoc = line.find("="), line.find("<<")
        if eq >= 0 and (heredoc < 0 or eq < heredoc):
            name, value = line.split("=", 1)
            if name == "":
                raise Failure(f"{what}: '{line}': the name is empty")
        elif heredoc >= 0:
            name, delimiter = line.split("<<", 1)
            if name == "" or delimiter == "":
                raise Failure(f"{what}: '{line}': the name and the delimiter must not be empty")
            try:
                end = lines.index(delimiter, i)
            except ValueError:
                raise Failure(f"{what}: {name}: the delimiter '{delimiter}' is never found") from None
            value = "\n".join(lines[i:end])
            i = end + 1
        else:
            raise Failure(f"{what}: '{line}': neither NAME=value nor NAME<<DELIMITER")
        pairs.append((name, value))
    return pairs


def read_file_command(path, what):
    with open(path, encoding="utf-8", newline="") as f:
        return parse_file_command(f.read(), what)


class Runner:
    def __init__(self, work, overrides):
        self.work = os.path.abspath(work)
        self.temp = os.path.join(self.work, "temp")
        self.overrides = overrides
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.temp)
        self.env_vars = {}  # what steps wrote into $GITHUB_ENV, for the steps after them
        self.paths = []  # what they wrote into $GITHUB_PATH, the newest last
        self.step_count = 0

    # ---- expressions ----
    def value(self, expr, ctx):
        parts = expr.split(".")
        if parts[0] == "inputs" and len(parts) == 2 and parts[1] in ctx["inputs"]:
            return ctx["inputs"][parts[1]]
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return ctx["steps"].get(parts[1], {}).get(parts[3], "")
        known = {"github.action_path": ctx.get("action_path", ROOT), "github.workspace": ROOT,
                 "runner.temp": self.temp, "runner.os": "Linux"}
        if expr in known:
            return known[expr]
        raise Failure(f"the expression '{expr}' is not one this runner knows: add it to scripts/action-local.py")

    def expand(self, text, ctx):
        return EXPR.sub(lambda m: self.value(m.group(1), ctx), str(text))

    def condition(self, text, ctx):
        text = EXPR.sub(lambda m: m.group(1), str(text)).strip()
        if text == "always()":
            return True
        m = re.fullmatch(r"(\S+)\s*(==|!=)\s*'([^']*)'", text)
        if m:
            same = self.value(m.group(1), ctx) == m.group(3)
            return same if m.group(2) == "==" else not same
        raise Failure(f"the condition '{text}' is not one this runner knows: add it to scripts/action-local.py")

    # ---- the runner's files ----
    def environment(self, step_env, ctx):
        env = dict(os.environ)
        env.update({"CI": "true", "GITHUB_WORKSPACE": ROOT, "RUNNER_TEMP": self.temp,
                    "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64"})
        if "action_path" in ctx:
            env["GITHUB_ACTION_PATH"] = ctx["action_path"]
        env.update(self.env_vars)
        env["PATH"] = os.pathsep.join(list(reversed(self.paths)) + [env.get("PATH", "")])
        for name, val in (step_env or {}).items():
            env[name] = self.expand(val, ctx)
        return env

    def read_step_files(self, env_file, path_file):
        """What a step wrote for the steps after it, read when it ends as the runner does: the
        $GITHUB_PATH lines (a path added again moves to the front), the $GITHUB_ENV settings."""
        with open(path_file, encoding="utf-8", newline="") as f:
            for line in re.split(r"\r\n|\r|\n", f.read()):  # .NET's ReadAllLines
                if line:
                    self.paths = [p for p in self.paths if p != line] + [line]
        for name, val in read_file_command(env_file, "$GITHUB_ENV"):
            self.env_vars[name] = val

    # ---- steps ----
    def run_steps(self, steps, ctx, where):
        for step in steps:
            self.step_count += 1
            label = step.get("name") or step.get("uses") or step.get("run", "").splitlines()[0]
            print(f"== action-local: {where}: {label}", flush=True)
            if "if" in step and not self.condition(step["if"], ctx):
                print(f"   (skipped: {step['if']})", flush=True)
                continue
            if "uses" in step:
                outputs = self.uses(step, ctx)
            else:
                outputs = self.run(step, ctx)
            if "id" in step:
                ctx["steps"][step["id"]] = outputs

    def run(self, step, ctx):
        files = {}
        for name in ("output", "env", "path"):
            files[name] = os.path.join(self.work, f"github_{name}_{self.step_count}")
            open(files[name], "w").close()
        env = self.environment(step.get("env"), ctx)
        env.update({"GITHUB_OUTPUT": files["output"], "GITHUB_ENV": files["env"], "GITHUB_PATH": files["path"]})
        shell = step.get("shell", "bash")
        if shell != "bash":
            raise Failure(f"shell '{shell}': this runner runs bash steps only")
        script = os.path.join(self.work, f"step_{self.step_count}.sh")
        with open(script, "w") as f:
            f.write(self.expand(step["run"], ctx))
        cwd = self.expand(step.get("working-directory", ROOT), ctx)
        if not os.path.isabs(cwd):
            cwd = os.path.join(ROOT, cwd)
        r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], cwd=cwd, env=env)
        if r.returncode != 0:
            raise Failure(f"the step failed with exit status {r.returncode}: {script}")
        self.read_step_files(files["env"], files["path"])
        return dict(read_file_command(files["output"], "$GITHUB_OUTPUT"))

    def uses(self, step, ctx):
        action = step["uses"]
        if action.startswith("actions/checkout@"):
            print(f"   (this tree is the checkout: {ROOT})", flush=True)
            return {}
        if action.startswith("actions/cache@"):
            print("   (no cache outside GitHub: a miss, so the steps after it build)", flush=True)
            return {"cache-hit": "false"}
        if action.startswith("actions/upload-artifact@"):
            given = step.get("with") or {}
            paths = [self.expand(p, ctx) for p in str(given.get("path", "")).splitlines() if p.strip()]
            found = [p for p in paths if os.path.exists(p)]
            print(f"   (no artifact store outside GitHub: '{given.get('name', 'artifact')}' stays in "
                  f"{', '.join(found) if found else 'no file: none of ' + ', '.join(paths) + ' exists'})", flush=True)
            return {}
        if action.startswith("./"):
            return self.composite(os.path.join(ROOT, action), step.get("with") or {}, ctx)
        raise Failure(f"uses: {action}: this runner knows actions/checkout, actions/cache, actions/upload-artifact "
                      "and ./ actions")

    def composite(self, path, given, outer):
        with open(os.path.join(path, "action.yml")) as f:
            action = yaml.safe_load(f)
        if action["runs"]["using"] != "composite":
            raise Failure(f"{path}/action.yml: not a composite action")
        inputs = {name: str(spec.get("default", "")) for name, spec in (action.get("inputs") or {}).items()}
        for name, val in given.items():
            inputs[name] = self.expand(val, outer)
        for name, val in self.overrides.items():
            if name not in inputs:
                raise Failure(f"--with {name}: the action has no such input ({', '.join(inputs)})")
            inputs[name] = val
        print(f"   inputs: {inputs}", flush=True)
        ctx = {"inputs": inputs, "steps": {}, "action_path": os.path.normpath(path)}
        self.run_steps(action["runs"]["steps"], ctx, "action")
        return {name: self.expand(spec.get("value", ""), ctx) for name, spec in (action.get("outputs") or {}).items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workflow", default=os.path.join(ROOT, ".github/workflows/example-user.yml"))
    ap.add_argument("--job", default="interop")
    ap.add_argument("--work", default=os.path.join(ROOT, "build/action-local"))
    ap.add_argument("--with", dest="overrides", action="append", default=[], metavar="NAME=VALUE",
                    help="an input of the action, over its default and the workflow's")
    ap.add_argument("--parse-env", metavar="FILE",
                    help="print what FILE, written as $GITHUB_ENV, sets (a JSON object) and exit")
    args = ap.parse_args()
    if args.parse_env:
        try:
            pairs = read_file_command(args.parse_env, args.parse_env)
        except Failure as e:
            sys.exit(f"action-local: {e}")
        print(json.dumps(dict(pairs), indent=1))
        return
    if yaml is None:
        sys.exit("action-local: PyYAML is missing (Debian/Ubuntu: apt-get install python3-yaml; scripts/deps.sh does)")
    overrides = {}
    for item in args.overrides:
        if "=" not in item:
            sys.exit(f"action-local: --with {item}: expected NAME=VALUE")
        name, val = item.split("=", 1)
        overrides[name] = val
    with open(args.workflow) as f:
        workflow = yaml.safe_load(f)
    jobs = workflow.get("jobs") or {}
    if args.job not in jobs:
        sys.exit(f"action-local: {args.workflow} has no job '{args.job}' ({', '.join(jobs)})")
    runner = Runner(args.work, overrides)
    try:
        runner.run_steps(jobs[args.job]["steps"], {"inputs": {}, "steps": {}}, args.job)
    except Failure as e:
        sys.exit(f"action-local: {e}")
    print(f"== action-local: {os.path.relpath(args.workflow, ROOT)} job {args.job}: all steps passed", flush=True)


if __name__ == "__main__":
    main()
