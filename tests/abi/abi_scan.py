#!/usr/bin/env python3
"""tests/abi/abi_scan.py: lists what extmem's CUDA headers declare, for the ABI check.

The headers are run through the C compiler's preprocessor (so platform conditionals resolve
exactly as they do for a program), and the declarations that come from include/extmem are
read back: enum constants, object-like macros, typedefs, struct and union layouts, function
prototypes and the symbol each public name expands to. The result is two X-macro lists:

  abi_items.h   names only. Compiled against NVIDIA's headers it prints NVIDIA's values
                (abi_nv_values.c); compiled against ours it asserts equality
                (abi_static_check.c) and reports (abi_layout_report.c).
  abi_types.h   our spelling of every typedef, field type and prototype. Compiled against
                NVIDIA's headers (abi_nv_types.c), each must name the same type there.
  abi_items_ptds.h, abi_types_ptds.h
                the same for a program built with CUDA_API_PER_THREAD_DEFAULT_STREAM: the
                symbol each name expands to then, and the _ptds/_ptsz prototypes.

Nothing here knows a CUDA name: a declaration added to our headers is covered on the next
build. A name NVIDIA's header does not have fails the build unless abi_exceptions.txt lists
it with a reason.
"""
import argparse
import os
import re
import subprocess
import sys

SKIP_HEADERS = {"export.h", "extmem.h", "version.h"}
PTDS_DEFINE = "CUDA_API_PER_THREAD_DEFAULT_STREAM=1"
PTDS_SUFFIXES = ("_ptds", "_ptsz")

TOKEN_RE = re.compile(r'''
    (?P<ws>\s+)
  | (?P<str>L?"(?:\\.|[^"\\])*")
  | (?P<chr>L?'(?:\\.|[^'\\])*')
  | (?P<num>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.])*)
  | (?P<id>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<punct>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^~!<>=?:;,.(){}\[\]\#])
''', re.X)

LINEMARKER_RE = re.compile(r'^#\s*(\d+)\s+"((?:\\.|[^"\\])*)"')
DEFINE_RE = re.compile(r'^#\s*define\s+([A-Za-z_][A-Za-z_0-9]*)(\()?(.*)$')
UNDEF_RE = re.compile(r'^#\s*undef\s+([A-Za-z_][A-Za-z_0-9]*)')

# Words that never name a declarator.
C_KEYWORDS = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
    "typedef", "union", "unsigned", "void", "volatile", "while", "_Bool", "_Complex",
    "_Atomic", "_Alignas", "_Noreturn", "__restrict", "__restrict__", "__inline",
    "__inline__", "__const", "__volatile__", "__extension__",
}
DROP_WORDS = {"extern", "static", "inline", "__inline", "__inline__", "__extension__", "_Noreturn"}
ATTR_WORDS = {"__attribute__", "__attribute", "__declspec", "__asm__", "__asm", "_Alignas"}
BUILTIN_TYPE_WORDS = {"void", "char", "short", "int", "long", "float", "double", "signed",
                      "unsigned", "_Bool", "const", "volatile"}


class ScanError(Exception):
    pass


def tokenize(text):
    toks = []
    pos = 0
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        if not m:
            raise ScanError("cannot tokenize near: %r" % text[pos:pos + 40])
        pos = m.end()
        if m.lastgroup != "ws":
            toks.append(m.group())
    return toks


def is_ident(tok):
    return re.match(r'^[A-Za-z_][A-Za-z_0-9]*$', tok) is not None


def match_close(toks, i):
    """Index of the bracket closing toks[i]."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    opener, closer = toks[i], pairs[toks[i]]
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] == opener:
            depth += 1
        elif toks[j] == closer:
            depth -= 1
            if depth == 0:
                return j
    raise ScanError("unbalanced %s in %s" % (opener, " ".join(toks[i:i + 20])))


def split_top(toks, sep):
    """Splits toks at sep where no bracket is open."""
    parts, cur, depth = [], [], 0
    for t in toks:
        if t in "({[":
            depth += 1
        elif t in ")}]":
            depth -= 1
        if t == sep and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        parts.append(cur)
    return parts


def strip_attributes(toks):
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        if t in ATTR_WORDS and i + 1 < len(toks) and toks[i + 1] == "(":
            i = match_close(toks, i + 1) + 1
            continue
        if t in DROP_WORDS:
            i += 1
            continue
        out.append(t)
        i += 1
    return out


def join(toks):
    """Spells tokens back as C, readably."""
    s = ""
    for t in toks:
        if s and (is_ident(t) or t[0].isdigit() or t == "*" or t == "(") and \
                (is_ident(s[-1]) or s[-1].isdigit() or s[-1] in ",)]"):
            s += " "
        elif s and t not in ",;)]" and s[-1] == ",":
            s += " "
        s += t
    return s


def declarator_name(toks):
    """The declared name in a declarator (with or without its base type), and its index.

    `int x[3]` -> x; `void (*fn)(void *p)` -> fn; `struct S *p` -> p.
    """
    depth = 0
    for i, t in enumerate(toks):
        if t == "(" and depth == 0:
            # A parenthesised declarator: `( * name )` before the parameter list.
            k = i + 1
            while k < len(toks) and toks[k] in ("*", "const", "volatile", "restrict"):
                k += 1
            if k < len(toks) and i + 1 < k and is_ident(toks[k]):
                return toks[k], k
            break
        if t == "[" and depth == 0:
            break
    # Otherwise the last identifier outside brackets that is not a keyword.
    depth, best = 0, None
    for i, t in enumerate(toks):
        if t in "([":
            depth += 1
        elif t in ")]":
            depth -= 1
        elif depth == 0 and is_ident(t) and t not in C_KEYWORDS:
            best = i
    if best is None:
        return None, None
    return toks[best], best


def inner_tag_of(toks, brace):
    """The tag of `struct|union|enum TAG {`, or None."""
    return toks[1] if brace == 2 else None


class Headers:
    def __init__(self):
        self.enums = []              # enum constant names, in order
        self.macros = {}             # name -> body tokens (object-like), in definition order
        self.fn_macros = []          # names of function-like macros (not comparable)
        self.typedefs = []           # (name, type-name tokens)
        self.aggregates = {}         # "struct tag" -> list of fields, for complete tags
        self.aggregate_order = []
        self.enum_tags = []          # tags of enums with a body
        self.functions = []          # (name, return tokens, parameter tokens)
        self.skipped = []            # (what, why)
        self.files = []

    # ---- declarations ----
    def add_enum_body(self, body):
        for item in split_top(body, ","):
            if item:
                if not is_ident(item[0]):
                    raise ScanError("odd enumerator: %s" % join(item))
                self.enums.append(item[0])

    def add_aggregate(self, kind, tag, body):
        """Records a struct/union body; returns its field list."""
        fields = []
        self.collect_fields(body, "", fields)
        if tag:
            key = "%s %s" % (kind, tag)
            if key not in self.aggregates:
                self.aggregate_order.append(key)
            self.aggregates[key] = fields
        return fields

    def collect_fields(self, body, prefix, fields):
        for member in split_top(body, ";"):
            member = strip_attributes(member)
            if not member:
                continue
            if "{" in member:
                i = member.index("{")
                j = match_close(member, i)
                kind = member[0]
                if kind == "enum":
                    self.add_enum_body(member[i + 1:j])
                    if inner_tag_of(member, i):
                        self.enum_tags.append(member[1])
                    inner_tag = member[1] if i == 2 else None
                    nested_type = ["enum", inner_tag] if inner_tag else None
                    for d in split_top(member[j + 1:], ","):
                        name, k = declarator_name(d)
                        fields.append((prefix + name, nested_type and nested_type + d[:k] + d[k + 1:]))
                    continue
                inner_tag = member[1] if i == 2 else None
                decls = split_top(member[j + 1:], ",")
                if not decls:
                    # C11 anonymous struct or union: its members belong to the enclosing one.
                    self.collect_fields(member[i + 1:j], prefix, fields)
                    if inner_tag:
                        self.add_aggregate(kind, inner_tag, member[i + 1:j])
                    continue
                if inner_tag:
                    self.add_aggregate(kind, inner_tag, member[i + 1:j])
                for d in decls:
                    name, k = declarator_name(d)
                    rest = d[:k] + d[k + 1:]
                    ftype = [kind, inner_tag] + rest if inner_tag else None
                    fields.append((prefix + name, ftype))
                    inner = prefix + name
                    if "[" in d and "*" not in d:
                        inner += "[0]"
                    if "*" not in d:
                        self.collect_fields(member[i + 1:j], inner + ".", fields)
                continue
            parts = split_top(member, ",")
            base_end = self.base_type_end(parts[0])
            base = parts[0][:base_end]
            for n, d in enumerate(parts):
                d = d[base_end:] if n == 0 else d
                if ":" in d:
                    name, _ = declarator_name(d[:d.index(":")])
                    self.skipped.append((prefix + name, "bit-field: no offsetof"))
                    continue
                name, k = declarator_name(base + d)
                if name is None:
                    raise ScanError("no member name in %s" % join(member))
                full = base + d
                fields.append((prefix + name, full[:k] + full[k + 1:]))

    @staticmethod
    def base_type_end(toks):
        """Where the base type of a declaration ends and its first declarator begins."""
        name, k = declarator_name(toks)
        end = k if k is not None else len(toks)
        for i, t in enumerate(toks[:end]):
            if t in ("*", "("):
                return i
        return end

    def add_typedef(self, toks):
        if "{" in toks:
            i = toks.index("{")
            j = match_close(toks, i)
            kind = toks[0]
            tag = toks[1] if i == 2 else None
            body = toks[i + 1:j]
            fields = None
            if kind == "enum":
                self.add_enum_body(body)
                if tag:
                    self.enum_tags.append(tag)
            else:
                fields = self.add_aggregate(kind, tag, body)
            for d in split_top(toks[j + 1:], ","):
                name, k = declarator_name(d)
                rest = d[:k] + d[k + 1:]
                if tag:
                    self.typedefs.append((name, [kind, tag] + rest))
                    continue
                # An untagged aggregate: the typedef name is the only way to spell it.
                if fields is not None and not rest:
                    if name not in self.aggregates:
                        self.aggregate_order.append(name)
                    self.aggregates[name] = fields
                self.typedefs.append((name, None))
            return
        parts = split_top(toks, ",")
        base_end = self.base_type_end(parts[0])
        base = parts[0][:base_end]
        for n, d in enumerate(parts):
            d = d[base_end:] if n == 0 else d
            full = base + d
            name, k = declarator_name(full)
            if name is None:
                raise ScanError("no typedef name in %s" % join(toks))
            self.typedefs.append((name, full[:k] + full[k + 1:]))

    def add_declaration(self, toks):
        toks = strip_attributes(toks)
        if not toks:
            return
        if toks[0] == "typedef":
            self.add_typedef(toks[1:])
            return
        if toks[0] in ("struct", "union", "enum") and "{" in toks:
            i = toks.index("{")
            j = match_close(toks, i)
            tag = toks[1] if i == 2 else None
            if toks[0] == "enum":
                self.add_enum_body(toks[i + 1:j])
                if tag:
                    self.enum_tags.append(tag)
            else:
                self.add_aggregate(toks[0], tag, toks[i + 1:j])
            if toks[j + 1:]:
                self.skipped.append((join(toks[j + 1:]), "object declaration: not compared"))
            return
        if toks[0] in ("struct", "union", "enum") and len(toks) == 2:
            return  # a forward declaration
        # A function prototype: name ( params ).
        for i, t in enumerate(toks):
            if t == "(":
                if i > 0 and is_ident(toks[i - 1]) and toks[i - 1] not in C_KEYWORDS:
                    j = match_close(toks, i)
                    if j == len(toks) - 1:
                        self.functions.append((toks[i - 1], toks[:i - 1], toks[i + 1:j]))
                        return
                break
        self.skipped.append((join(toks), "declaration of an object: not compared"))

    # ---- preprocessed input ----
    def read(self, cc, include_dirs, header, defines):
        src = '#include "%s"\n' % header
        cmd = [cc, "-E", "-dD", "-std=c11", "-x", "c"] + ["-I" + d for d in include_dirs] + \
              ["-D" + d for d in defines] + ["-"]
        try:
            out = subprocess.run(cmd, input=src, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 universal_newlines=True, check=True).stdout
        except subprocess.CalledProcessError as e:
            raise ScanError("preprocessing %s failed:\n%s" % (header, e.stderr))
        ours = os.path.realpath(include_dirs[0])
        keep = False
        code = []
        for line in out.splitlines():
            m = LINEMARKER_RE.match(line)
            if m:
                path = os.path.realpath(m.group(2)) if not m.group(2).startswith("<") else ""
                keep = path.startswith(ours + os.sep) and os.path.basename(path) not in SKIP_HEADERS
                if keep and path not in self.files:
                    self.files.append(path)
                continue
            if not keep:
                continue
            m = DEFINE_RE.match(line)
            if m:
                name, paren, body = m.group(1), m.group(2), m.group(3)
                if paren:
                    if name not in self.fn_macros:
                        self.fn_macros.append(name)
                else:
                    self.macros.pop(name, None)
                    self.macros[name] = tokenize(body)
                continue
            m = UNDEF_RE.match(line)
            if m:
                self.macros.pop(m.group(1), None)
                continue
            if line.startswith("#"):
                continue  # pragmas and the like
            code.append(line)
        toks = tokenize("\n".join(code))
        for decl in split_top(toks, ";"):
            self.add_declaration(decl)


def dedupe(seq, key=lambda x: x):
    seen, out = set(), []
    for x in seq:
        k = key(x)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def c_ident(s):
    return re.sub(r'[^A-Za-z0-9_]', '_', s.replace("[0]", "_0").replace(".", "__"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cc", required=True, help="C compiler used to preprocess")
    ap.add_argument("--include", action="append", required=True,
                    help="include directory; the first is extmem's include/")
    ap.add_argument("--exceptions", help="names NVIDIA's header lacks on purpose")
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("headers", nargs="+", help="headers to scan, relative to the include dir")
    args = ap.parse_args()

    exceptions = {}
    if args.exceptions:
        with open(args.exceptions) as f:
            for line in f:
                line = line.split("#", 1)
                name = line[0].strip()
                if name:
                    exceptions[name] = line[1].strip() if len(line) > 1 else ""

    # The headers as an ordinary program sees them, and as one built with
    # CUDA_API_PER_THREAD_DEFAULT_STREAM (nvcc --default-stream per-thread) sees them: that
    # mode renames stream-ordered calls to their _ptds/_ptsz symbols.
    h, hp = Headers(), Headers()
    scanned = []
    for header in args.headers:
        if os.path.exists(os.path.join(args.include[0], header)):
            h.read(args.cc, args.include, header, [])
            hp.read(args.cc, args.include, header, [PTDS_DEFINE])
            scanned.append(header)

    h.enums = dedupe(h.enums)
    h.typedefs = dedupe(h.typedefs, key=lambda t: t[0])
    h.functions = dedupe(h.functions, key=lambda f: f[0])

    excepted = []

    def allowed(*names):
        for n in names:
            if n in exceptions:
                excepted.append("%s: %s" % (n, exceptions[n]))
                return False
        return True

    enum_set = set(h.enums)
    typedef_types = {name: t for name, t in h.typedefs}

    def resolves_to_pointer(toks, seen=()):
        if toks is None:
            return False
        if "*" in toks:
            return True
        for t in toks:
            if t in typedef_types and t not in seen:
                if resolves_to_pointer(typedef_types[t], seen + (t,)):
                    return True
        return False

    def complete(toks, seen=()):
        """Whether sizeof can be taken of a type spelled by toks in our headers."""
        if toks is None:
            return True
        if "*" in toks:
            return "(" not in toks or "(" in toks and "*" in toks[toks.index("("):]
        if "(" in toks:
            return False  # a function type
        if toks[0] in ("struct", "union"):
            return " ".join(toks[:2]) in h.aggregates
        if toks == ["void"]:
            return False
        for t in toks:
            if t in typedef_types and t not in seen:
                return complete(typedef_types[t], seen + (t,))
        return True

    def names_symbol(macros, name, seen=()):
        """Whether a macro expands to one identifier that is no constant: a function's name."""
        body = macros[name]
        # EXTMEM_PTDS(x) / EXTMEM_PTSZ(x): x, or its per-thread-stream variant.
        if (len(body) == 4 and body[0] in ("EXTMEM_PTDS", "EXTMEM_PTSZ") and body[1] == "("
                and is_ident(body[2]) and body[3] == ")"):
            return True
        if len(body) != 1 or not is_ident(body[0]) or body[0] in enum_set:
            return False
        target = body[0]
        if target in macros and target != name and target not in seen:
            return names_symbol(macros, target, seen + (name,))
        return True

    def public_names(hdr):
        """Every name a program can call: the renaming macros and the declared functions."""
        names = [m for m, body in hdr.macros.items()
                 if body and not m.startswith("EXTMEM_") and not m.startswith("__")
                 and names_symbol(hdr.macros, m)]
        names += sorted(f[0] for f in hdr.functions if f[0] not in hdr.macros)
        return dedupe(names)

    items = []   # abi_items.h lines
    types = []   # abi_types.h lines
    counts = {}

    def emit(kind, line, into=items):
        into.append(line)
        counts[kind] = counts.get(kind, 0) + 1

    for e in h.enums:
        if allowed(e):
            emit("enum", "ABI_ENUM(%s)" % e)

    for name, body in h.macros.items():
        if name.startswith("EXTMEM_") or name.startswith("__"):
            continue
        if not body:
            continue  # calling conventions and guards: nothing to compare
        if not allowed(name):
            continue
        if names_symbol(h.macros, name):
            continue  # a symbol name: below
        elif body[0].startswith('"') or body[0].startswith('L"'):
            emit("string macro", "ABI_STR_MACRO(%s)" % name)
        elif resolves_to_pointer(body):
            emit("pointer macro", "ABI_PTR_MACRO(%s)" % name)
        elif any(re.match(r'^\.?[0-9]', t) and not re.match(r'^0[xX]', t) and
                 re.search(r'[.eE]', t) and not re.search(r'[uUlL]$', t) for t in body):
            emit("float macro", "ABI_FLOAT_MACRO(%s)" % name)
        else:
            emit("integer macro", "ABI_INT_MACRO(%s)" % name)
    for name in public_names(h):
        if allowed(name):
            emit("symbol", "ABI_SYMBOL(%s)" % name)
    items_ptds = []
    for name in public_names(hp):
        if allowed(name):
            emit("per-thread-stream symbol", "ABI_SYMBOL(%s)" % name, items_ptds)

    for name, t in h.typedefs:
        if not allowed(name):
            continue
        if complete(t):
            emit("type size", "ABI_TYPE(%s, %s)" % (c_ident(name), name))
        else:
            h.skipped.append((name, "incomplete in our header: size not compared"))
        if t is not None:
            emit("typedef spelling", "ABI_SAME_TYPE(%s, %s)" % (name, join(t)), types)

    for tag in dedupe(h.enum_tags):
        if allowed(tag):
            emit("type size", "ABI_TYPE(enum_%s, enum %s)" % (tag, tag))

    for key in h.aggregate_order:
        fields = h.aggregates[key]
        tag = key.split()[-1]
        aliases = [n for n, t in h.typedefs if t == key.split()]
        if not allowed(tag, key, *aliases):
            continue
        emit("type size", "ABI_TYPE(%s, %s)" % (c_ident(key), key))
        for path, ftype in fields:
            fid = c_ident(key + "__" + path)
            emit("field", "ABI_FIELD(%s, %s, %s)" % (fid, key, path))
            if ftype is not None:
                emit("field type", "ABI_SAME_FIELD_TYPE(%s, %s, %s)" % (key, path, join(ftype)),
                     types)

    # NVIDIA's headers declare the _ptds/_ptsz functions only in per-thread-stream mode.
    types_ptds = []
    for name, ret, params in h.functions:
        if not allowed(name):
            continue
        ptype = "%s (*)(%s)" % (join(ret), join(params))
        emit("prototype", "ABI_PROTO(%s, %s)" % (name, ptype),
             types_ptds if name.endswith(PTDS_SUFFIXES) else types)

    os.makedirs(args.out_dir, exist_ok=True)
    ours = os.path.realpath(args.include[0])
    read = [os.path.relpath(f, ours) for f in h.files]
    header = ("/* Generated by tests/abi/abi_scan.py from %s. Do not edit. */\n"
              % ", ".join("include/" + s for s in read))

    def write(name, lines, extra=""):
        path = os.path.join(args.out_dir, name)
        text = header + extra + "\n".join(lines) + "\n"
        old = None
        if os.path.exists(path):
            with open(path) as f:
                old = f.read()
        if old != text:
            with open(path, "w") as f:
                f.write(text)

    include_lines = "".join('#include "%s"\n' % s for s in scanned)
    summary = ", ".join("%d %s%s" % (n, k, "" if n == 1 else "s") for k, n in counts.items())
    write("abi_items.h", items,
          "#ifndef ABI_SCANNED_HEADERS\n#define ABI_SCANNED_HEADERS \"%s\"\n#endif\n"
          % " ".join(read))
    write("abi_types.h", types)
    write("abi_items_ptds.h", items_ptds)
    write("abi_types_ptds.h", types_ptds)
    write("abi_our_headers.h", [], include_lines)
    notes = ["/* " + "%s: %s" % (w, why) + " */" for w, why in h.skipped]
    notes += ["/* listed in abi_exceptions.txt: %s */" % e for e in dedupe(excepted)]
    notes += ["/* function-like macro, not compared: %s */" % m for m in h.fn_macros
              if not m.startswith("EXTMEM_")]
    notes.append('#define ABI_NOTES_COUNT %d' % (len(notes)))
    notes.append("static const char *const abi_notes[] = {")
    notes += ['    "%s",' % n[3:-3].replace("\\", "\\\\").replace('"', '\\"')
              for n in notes[:-2]]
    notes.append("    0 };")
    write("abi_notes.h", notes)
    print("abi_scan: %s: %s" % (" ".join(read), summary))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ScanError as e:
        sys.stderr.write("abi_scan: %s\n" % e)
        sys.exit(1)
