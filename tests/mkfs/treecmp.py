# SPDX-License-Identifier: GPL-2.0-or-later
"""treecmp: what the mkfs.execfolio tests share to compare a mounted image
with its source tree (compare_tree.py, prop_tree.py): reading the tree,
the --report and --dry-run files, and the checks of one entry, each
problem kept unless the report announces the difference.
"""
import os
import stat

POLICY = b"trusted.exec_folio_size"


def escape(b):
    """A path as mkfs.execfolio's report and --dry-run lines print it."""
    out = []
    for c in b:
        if c == 0x5c:
            out.append("\\\\")
        elif c == 0x0a:
            out.append("\\n")
        elif c == 0x09:
            out.append("\\t")
        elif c < 0x20 or c >= 0x7f:
            out.append("\\x%02x" % c)
        else:
            out.append(chr(c))
    return "".join(out)


def all_xattrs(p):
    """Every xattr of @p (not followed if a link), by name."""
    out = {}
    for n in os.listxattr(p, follow_symlinks=False):
        n = n.encode()
        out[n] = os.getxattr(p, n, follow_symlinks=False)
    return out


def copied_xattrs(p):
    """The xattrs of @p that mkfs.execfolio copies (user.*, trusted.*,
    security.*), by name; none where the file system lists none."""
    try:
        names = os.listxattr(p, follow_symlinks=False)
    except OSError:
        return {}
    out = {}
    for n in names:
        n = n.encode()
        if n.split(b".")[0] in (b"user", b"trusted", b"security"):
            out[n] = os.getxattr(p, n, follow_symlinks=False)
    return out


def same_content(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(1 << 20), fb.read(1 << 20)
            if x != y:
                return False
            if not x:
                return True


def walk(top):
    """lstat() of every entry below @top by its path from there, the top
    itself as b""."""
    out = {b"": os.lstat(top)}
    for d, dirnames, filenames in os.walk(top):
        for n in dirnames + filenames:
            p = os.path.join(d, n)
            out[os.path.relpath(p, top)] = os.lstat(p)
    return out


def read_policies(path):
    """--dry-run's lines, "ESCAPED-PATH VALUE": the values by path."""
    policies = {}
    with open(path, encoding="latin-1") as f:
        for line in f:
            rel, value = line.rstrip("\n").rsplit(" ", 1)
            policies[rel] = value.encode()
    return policies


class Comparison:
    """The problems found comparing an image with its source, and the
    --report lines that may excuse a difference ("PATH: what")."""

    def __init__(self, report_path):
        with open(report_path, encoding="latin-1") as f:
            self.report = f.read().splitlines()
        self.problems = []

    def reported(self, rel, what):
        prefix = (escape(rel) if rel else ".") + ": "
        return any(line.startswith(prefix) and what in line[len(prefix):]
                   for line in self.report)

    def problem(self, rel, msg):
        self.problems.append("%s: %s" % (escape(rel) or ".", msg))

    def entries(self, src_modes, img):
        """The paths of both @src_modes (path: st_mode) and @img, in
        order; one of only one side is a problem, but for a socket the
        report says was not created."""
        for rel in sorted(set(img) - set(src_modes)):
            self.problem(rel, "in the image, not in the source")
        for rel in sorted(src_modes):
            if rel in img:
                yield rel
            elif not (stat.S_ISSOCK(src_modes[rel]) and
                      self.reported(rel, "socket not created")):
                self.problem(rel, "missing from the image, not reported")

    def content(self, rel, size, src_path, img_stat, img_path):
        if size != img_stat.st_size or not same_content(src_path, img_path):
            self.problem(rel, "content differs")

    def symlink(self, rel, target, img_path):
        if os.readlink(img_path) != target:
            self.problem(rel, "symlink target %r, image %r" %
                         (target, os.readlink(img_path)))

    def device(self, rel, rdev, img_stat):
        if rdev != img_stat.st_rdev:
            self.problem(rel, "device %d:%d, image %d:%d" % (
                os.major(rdev), os.minor(rdev),
                os.major(img_stat.st_rdev), os.minor(img_stat.st_rdev)))

    def xattrs(self, rel, want, got, policies, trusted_unseen=False):
        """@want, the source's xattrs with the policy --dry-run gave the
        file, against the image's @got. One missing from the image is
        excused where the report says it was not copied, and a trusted.*
        one where the build could not see them (@trusted_unseen)."""
        want = dict(want)
        if escape(rel) in policies:
            want[POLICY] = policies[escape(rel)]
        for name in sorted(set(want) | set(got)):
            if want.get(name) == got.get(name):
                continue
            if name not in got and self.reported(
                    rel, "xattr %s not copied" % name.decode("latin-1")):
                continue
            if name not in got and name.startswith(b"trusted.") and \
                    trusted_unseen:
                continue
            self.problem(rel, "xattr %r: source %r, image %r" %
                         (name, want.get(name), got.get(name)))

    def finish(self, counts):
        """Prints each problem, then what was compared (@counts) and how
        many problems: the exit status, 1 if any."""
        for p in self.problems:
            print(p)
        print("compared %s, %d problems" % (counts, len(self.problems)))
        return 1 if self.problems else 0
