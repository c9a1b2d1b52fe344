#!/usr/bin/env python3
"""A minimal lint of GitHub workflow files and composite actions, standing in for actionlint,
which Debian does not package (not in bookworm, bookworm-backports or trixie).

    scripts/lint-workflows.py [FILE...]     default: .github/workflows/*.yml and action.yml

It checks what matters for extmem's files, and says which rule each problem breaks:
- the YAML parses; a workflow's top-level keys are GitHub's, with `on` and `jobs`;
- each job has `runs-on` and `steps` (or `uses`, a reusable workflow), and known keys;
- each step has exactly one of `uses` and `run`, and known keys; `uses` names a local action
  (./path), a docker image or owner/repo@ref; ids are unique within their job or action;
- every `${{` has its `}}`; `steps.<id>` names an earlier step of the same job or action, and
  `inputs.<name>` an input of the action;
- an action has name, description and runs; a composite one `using: composite`, steps, a
  `shell` on every run step, a description on every input, a `value` on every output.
Exit status 1 with a line per problem ("file: where: what"), 0 when there is none.
"""
import glob
import os
import re
import sys

try:
    import yaml
except ImportError:
    sys.exit("lint-workflows: PyYAML is missing (Debian/Ubuntu: apt-get install python3-yaml; scripts/deps.sh does)")

WORKFLOW_KEYS = {"name", "run-name", "on", "permissions", "env", "defaults", "concurrency", "jobs"}
JOB_KEYS = {"name", "permissions", "needs", "if", "runs-on", "environment", "concurrency", "outputs", "env",
            "defaults", "steps", "timeout-minutes", "strategy", "continue-on-error", "container", "services",
            "uses", "with", "secrets"}
STEP_KEYS = {"id", "if", "name", "uses", "run", "shell", "with", "env", "continue-on-error", "timeout-minutes",
             "working-directory"}
ACTION_KEYS = {"name", "author", "description", "inputs", "outputs", "runs", "branding"}
USES = re.compile(r"^(\./.*|docker://.+|[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[A-Za-z0-9_./-]+)$")


class Lint:
    def __init__(self, path):
        self.path = path
        self.problems = []

    def say(self, where, what):
        self.problems.append(f"{self.path}: {where}: {what}")

    def strings(self, node, where):
        """Every string in node, with where it is."""
        if isinstance(node, str):
            yield where, node
        elif isinstance(node, dict):
            for k, v in node.items():
                yield from self.strings(v, f"{where}.{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from self.strings(v, f"{where}[{i}]")

    def expressions(self, node, where, step_ids, inputs):
        """`${{ }}` balanced; steps.<id> and inputs.<name> known. step_ids: the ids defined so far."""
        for at, text in self.strings(node, where):
            rest = text
            while "${{" in rest:
                start = rest.index("${{")
                end = rest.find("}}", start + 3)
                if end < 0:
                    self.say(at, f"'${{{{' without its '}}}}': {text.strip()[:80]}")
                    break
                expr = rest[start + 3:end]
                if "${{" in expr:
                    self.say(at, f"'${{{{' inside an expression: {text.strip()[:80]}")
                for m in re.finditer(r"\bsteps\.([A-Za-z0-9_-]+)", expr):
                    if step_ids is not None and m.group(1) not in step_ids:
                        self.say(at, f"steps.{m.group(1)} names no earlier step with that id")
                for m in re.finditer(r"\binputs\.([A-Za-z0-9_-]+)", expr):
                    if inputs is not None and m.group(1) not in inputs:
                        self.say(at, f"inputs.{m.group(1)} is not an input of the action")
                rest = rest[end + 2:]

    def steps(self, steps, where, composite, inputs):
        if not isinstance(steps, list) or not steps:
            self.say(where, "`steps` must be a non-empty list")
            return
        ids = set()
        for i, step in enumerate(steps):
            at = f"{where}[{i}]" + (f" ({step.get('name')})" if isinstance(step, dict) and step.get("name") else "")
            if not isinstance(step, dict):
                self.say(at, "a step must be a mapping")
                continue
            for k in step:
                if k not in STEP_KEYS:
                    self.say(at, f"unknown step key '{k}'")
            if ("uses" in step) == ("run" in step):
                self.say(at, "a step needs exactly one of `uses` and `run`")
            if "uses" in step and not USES.match(str(step["uses"])):
                self.say(at, f"uses: '{step['uses']}' is not ./path, docker://image or owner/repo@ref")
            if "run" in step and composite and "shell" not in step:
                self.say(at, "a run step of a composite action needs `shell`")
            if "uses" in step and ("shell" in step or "working-directory" in step):
                self.say(at, "`shell` and `working-directory` belong to run steps")
            # A step's expressions may name the steps before it, not itself.
            self.expressions(step, at, ids, inputs)
            if "id" in step:
                if step["id"] in ids:
                    self.say(at, f"the id '{step['id']}' is used twice")
                ids.add(step["id"])
        return ids

    def workflow(self, doc):
        # YAML 1.1 reads the key `on` as the boolean true.
        if True in doc:
            doc["on"] = doc.pop(True)
        for k in doc:
            if k not in WORKFLOW_KEYS:
                self.say("top level", f"unknown key '{k}'")
        for k in ("on", "jobs"):
            if k not in doc:
                self.say("top level", f"`{k}` is missing")
        jobs = doc.get("jobs") or {}
        if not isinstance(jobs, dict) or not jobs:
            self.say("jobs", "`jobs` must be a non-empty mapping")
            return
        for name, job in jobs.items():
            at = f"jobs.{name}"
            if not isinstance(job, dict):
                self.say(at, "a job must be a mapping")
                continue
            for k in job:
                if k not in JOB_KEYS:
                    self.say(at, f"unknown job key '{k}'")
            if "uses" in job:
                continue
            if "runs-on" not in job:
                self.say(at, "`runs-on` is missing")
            self.steps(job.get("steps"), f"{at}.steps", composite=False, inputs=None)
            for k, v in job.items():
                if k != "steps":
                    self.expressions(v, f"{at}.{k}", None, None)

    def action(self, doc):
        for k in doc:
            if k not in ACTION_KEYS:
                self.say("top level", f"unknown key '{k}'")
        for k in ("name", "description", "runs"):
            if k not in doc:
                self.say("top level", f"`{k}` is missing")
        inputs = doc.get("inputs") or {}
        for name, spec in inputs.items():
            if not isinstance(spec, dict) or "description" not in spec:
                self.say(f"inputs.{name}", "an input needs a `description`")
        runs = doc.get("runs") or {}
        using = runs.get("using")
        if using != "composite":
            if using not in ("node20", "node16", "docker"):
                self.say("runs.using", f"'{using}' is not composite, node20 or docker")
            return
        ids = self.steps(runs.get("steps"), "runs.steps", composite=True, inputs=set(inputs)) or set()
        for name, spec in (doc.get("outputs") or {}).items():
            if not isinstance(spec, dict) or "value" not in spec:
                self.say(f"outputs.{name}", "an output of a composite action needs a `value`")
            else:
                self.expressions(spec, f"outputs.{name}", ids, set(inputs))


def lint(path):
    lint = Lint(path)
    try:
        with open(path) as f:
            doc = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        lint.say("file", f"cannot be read as YAML: {e}")
        return lint.problems
    if not isinstance(doc, dict):
        lint.say("file", "the top level must be a mapping")
    elif os.path.basename(path) in ("action.yml", "action.yaml"):
        lint.action(doc)
    else:
        lint.workflow(doc)
    return lint.problems


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(root, ".github/workflows/*.y*ml"))) + [
        p for p in (os.path.join(root, "action.yml"),) if os.path.exists(p)]
    if not files:
        sys.exit("lint-workflows: no files to check")
    problems = []
    for path in files:
        problems += lint(path)
    for p in problems:
        print(p)
    print(f"lint-workflows: {len(files)} files, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
