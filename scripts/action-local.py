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
- the runner's files ($GITHUB_OUTPUT, $GITHUB_ENV, $GITHUB_PATH) and $RUNNER_TEMP live under
  --work; `run` steps run as GitHub runs them: bash --noprofile --norc -eo pipefail.
Only the expressions these files use are understood (inputs, steps' outputs, github.action_path,
github.workspace, runner.temp, runner.os, and `==` / `!=` against a string in `if`); any other
stops the run with its text, so the two cannot drift apart unnoticed.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

try:
    import yaml
except ImportError:
    sys.exit("action-local: PyYAML is missing (Debian/Ubuntu: apt-get install python3-yaml; scripts/deps.sh does)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class Failure(Exception):
    pass


class Runner:
    def __init__(self, work, overrides):
        self.work = os.path.abspath(work)
        self.temp = os.path.join(self.work, "temp")
        self.overrides = overrides
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.temp)
        self.env_file = os.path.join(self.work, "github_env")
        self.path_file = os.path.join(self.work, "github_path")
        open(self.env_file, "w").close()
        open(self.path_file, "w").close()
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
        m = re.fullmatch(r"(\S+)\s*(==|!=)\s*'([^']*)'", text)
        if m:
            same = self.value(m.group(1), ctx) == m.group(3)
            return same if m.group(2) == "==" else not same
        raise Failure(f"the condition '{text}' is not one this runner knows: add it to scripts/action-local.py")

    # ---- the runner's files ----
    def environment(self, step_env, ctx):
        env = dict(os.environ)
        env.update({"CI": "true", "GITHUB_WORKSPACE": ROOT, "RUNNER_TEMP": self.temp,
                    "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64", "GITHUB_ENV": self.env_file,
                    "GITHUB_PATH": self.path_file})
        if "action_path" in ctx:
            env["GITHUB_ACTION_PATH"] = ctx["action_path"]
        with open(self.env_file) as f:
            for line in f.read().splitlines():
                if "=" in line:
                    name, val = line.split("=", 1)
                    env[name] = val
        with open(self.path_file) as f:
            extra = [p for p in f.read().splitlines() if p]
        env["PATH"] = os.pathsep.join(list(reversed(extra)) + [env.get("PATH", "")])
        for name, val in (step_env or {}).items():
            env[name] = self.expand(val, ctx)
        return env

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
        out_file = os.path.join(self.work, f"github_output_{self.step_count}")
        open(out_file, "w").close()
        env = self.environment(step.get("env"), ctx)
        env["GITHUB_OUTPUT"] = out_file
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
        outputs = {}
        with open(out_file) as f:
            for line in f.read().splitlines():
                if "=" in line:
                    name, val = line.split("=", 1)
                    outputs[name] = val
        return outputs

    def uses(self, step, ctx):
        action = step["uses"]
        if action.startswith("actions/checkout@"):
            print(f"   (this tree is the checkout: {ROOT})", flush=True)
            return {}
        if action.startswith("actions/cache@"):
            print("   (no cache outside GitHub: a miss, so the steps after it build)", flush=True)
            return {"cache-hit": "false"}
        if action.startswith("./"):
            return self.composite(os.path.join(ROOT, action), step.get("with") or {}, ctx)
        raise Failure(f"uses: {action}: this runner knows actions/checkout, actions/cache and ./ actions")

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
    args = ap.parse_args()
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
