#!/usr/bin/env python3
"""Compares the set of lines pick matches with the set fzf matches.

For a generated, varied input (ASCII words and paths, camelCase, precomposed and
decomposed Latin accents, stroked letters, ß, Turkish İ/ı, Cyrillic, Greek, CJK, emoji,
fullwidth forms, empty and blank lines, leading/trailing and non-ASCII spaces, lines of
10k+ characters, shell metacharacters, invalid UTF-8), and for many queries (every piece
of fzf's extended syntax, plus seeded random queries cut from the input lines), it runs

    pick --filter Q [flags]      and      fzf --filter Q [flags]

for each flag set (none, -e, -i, +i, --literal, -e -i) and compares the SETS of printed
lines (order does not matter). Every difference is printed with the query, the flags
and the differing lines (repr'd).

Differences that come from pick's deliberate folding are classified "expected" rather
than failures: the differing line has letters pick folds on purpose where fzf does not,
the query has none of them, and fzf itself agrees with pick once those letters are
replaced, in the line, by what pick folds them to. The categories (pick's folding is
read from Sources/PickCore/Text/FoldTable.swift):
- "non-Latin folding": pick strips diacritics in every script, so `и` finds `й` and `α`
  finds `ά`, where fzf folds Latin only. This is the one deliberate difference.
- "Latin folding fzf's table lacks": fzf folds Latin through a hand-made table that
  misses letters with two diacritics (ǖ ǻ ḉ), most capitals when the query is
  case-sensitive (`Cesky` does not find `Český`), and folds small capitals (ᴀ) to
  upper case; pick folds every Latin letter with a diacritic, and ᴀ to `a`.
- "lower-casing fzf's fuzzy skips (not Lu)": fzf's fuzzy matcher lower-cases only
  letters of category Lu, not title-case ǅ, Ⓐ or Ⅻ (its exact matcher does).
And "non-Latin diacritic in query": a term that carries a diacritic of any script (й)
matches as typed in pick, while fzf still folds that term's Latin letters; "folded
letters in the query too": such letters in both the query and the line (`ᴇᴏ ord` on
`ʜᴇʟʟᴏ ᴡᴏʀʟᴅ`), where fzf agrees once they are folded on both sides.
Anything else is unexpected, and the exit status is 1.

Usage: python3 tools/fzf-parity.py [--pick PATH] [--fzf PATH] [--seed N] [--random N]
                                   [--jobs N] [--show N] [--verbose]
Standard library only.
"""
import argparse
import concurrent.futures
import os
import random
import subprocess
import sys
import unicodedata

FLAG_SETS = [[], ["-e"], ["-i"], ["+i"], ["--literal"], ["-e", "-i"]]

# ---------------------------------------------------------------------------------------
# Input

WORDS = [
    "alpha", "beta", "gamma", "delta", "main", "swift", "package", "source", "readme",
    "makefile", "config", "test", "build", "debug", "release", "user", "local", "share",
    "python", "library", "index", "query", "match", "folder", "picker", "terminal",
    "café", "naïve", "résumé", "façade", "über", "smörgåsbord", "jalapeño", "Ærøskøbing",
    "Łódź", "Đakovo", "straße", "İstanbul", "ıslak", "Москва", "привет", "йогурт",
    "ёлка", "Ελλάδα", "ἀλήθεια", "άλφα", "ωμέγα", "東京", "日本語", "北京", "서울",
    "한국어", "🍕", "🎉party", "naïve", "Crème", "brûlée", "Ünïcödé", "tiếng", "Việt",
]

FIXED_LINES = [
    "", "", " ", "   ", "\t", "  leading spaces", "trailing spaces  ", "  both sides  ",
    "\tleading tab", "trailing tab\t",
    # Tabbed input as pipes give it: grep -rn on tab-indented code, git log with %x09,
    # a TSV whose fourth column names a key, a palette line.
    "src/main.c:12:\tint main(void) {", "src/main.c:13:\t\treturn 0;", "a1b2c3d\tAda Lovelace\tFix the parser",
    "0f3e9a1\tGrace Hopper\tAdd a compiler", "id\tname\tnotes\tf5", "42\tsave\twrite to disk\tf5",
    "New File\tCreate\tadd,touch\tctrl-n", "Go to Line\tGo to\tjump,number\tf9",
    "src/main.swift", "Sources/PickCore/Query.swift", "Sources/PickCore/Matcher.swift",
    "Tests/PickCoreTests/FzfParityTests.swift", "/usr/lib/python3/dist-packages/foo.py",
    "/usr/share/man/man1/pick.1.gz", "README.md", "Makefile", "Package.swift",
    "camelCaseWord", "CamelCaseWord", "getHTTPResponseCode", "XMLHttpRequest",
    "snake_case_name", "kebab-case-name", "dot.separated.name", "UPPER CASE LINE",
    "MiXeD cAsE LiNe", "foo bar baz", "foo  bar", "foobar", "fooBar", "FOOBAR", "f o o",
    "café", "cafe", "CAFÉ", "Café", "cafe\u0301", "CAFE\u0301", "cafe\u0301 au lait",
    "re\u0301sume\u0301", "résumé", "resume", "naïve", "naive", "nai\u0308ve",
    "Ångström", "A\u030angstro\u0308m", "angstrom", "Åland", "Ålesund",
    "smørrebrød", "Søren", "Ørsted", "Łódź", "lodz", "Lodz", "Wrocław", "Đorđe", "đak",
    "straße", "STRASSE", "strasse", "Straße", "ẞ uppercase sharp s",
    "İstanbul", "istanbul", "ISTANBUL", "ıslak", "Islak", "ılık", "DİYARBAKIR",
    "Москва", "москва", "МОСКВА", "привет мир", "йогурт", "иогурт", "Йошкар-Ола",
    "ёлка", "елка", "Ёж", "Ежик", "ї", "Київ", "Киев", "Ўзбек", "Ґанок",
    "Ελλάδα", "ελλαδα", "ΕΛΛΆΔΑ", "ἀλήθεια", "αληθεια", "άλφα", "αλφα", "Άλφα",
    "ωμέγα", "ωμεγα", "ΐ", "ϊ", "σοφία", "Σοφία", "ΣΟΦΙΑ", "λόγος λογος",
    "東京都", "日本語のテキスト", "北京市", "中文 文件.txt", "서울특별시", "한국어",
    "がぎぐげご", "かきくけこ", "パピプペポ", "ハヒフヘホ", "ｶﾞｷﾞ",
    "🍕 pizza", "pizza 🍕", "🎉🎉🎉", "emoji 👍🏽 thumbs", "👨‍👩‍👧 family", "flag 🇫🇷",
    "ＦＵＬＬＷＩＤＴＨ", "ｆｕｌｌｗｉｄｔｈ", "Ｆｕｌｌ：ｗｉｄｔｈ／ｐａｔｈ", "１２３",
    "\u00a0nbsp leading", "nbsp trailing\u00a0", "\u3000ideographic space", "em\u2003space",
    "tiếng Việt", "tieng Viet", "Nguyễn", "nguyen", "phở", "đường", "Hà Nội",
    "ǅemal", "ǆ", "Ǉ", "ﬁle ligature", "ﬀ", "Ⅻ roman", "Ⓐ circled", "ⓐ",
    "ɛ open e", "ᴀ small cap", "ʙ", "ƀ stroke b", "ɓ hook b", "ⁱ superscript", "ₕ",
    "Kelvin K sign", "Å angstrom sign", "ȼ", "Ƀ", "ꝁ",
    "ʜᴇʟʟᴏ ᴡᴏʀʟᴅ", "hello world", "ǖ pinyin lǘ", "Ǻ ǻ", "ḉ", "Český Krumlov", "cesky",
    "ĂN", "Ăn", "An", "Ⱥ stroke capital", "«quoted» word", "foo.bar baz_qux", "foo-bar",
    "(foo)", "foo's", "is it", "it", "emoji🍕pizza", "pizza🍕", "東京 タワー", "東京タワー",
    "a|b", "a | b", "pipe|line", "|", "||", "it's", "'quoted'", "don't", "^caret",
    "caret^", "^", "$dollar", "dollar$", "$", "$$", "!bang", "bang!", "!", "!!",
    "back\\slash", "\\", "C:\\Windows\\System32", "a\\ b", "a b", "tab\there",
    "x", "X", "xx", "xyz", "zyx", "a", "ab", "abc", "abcabc", "aaa", "123", "1a2b3c",
    "v1.2.3", "file-2024-01-01.log", "100%", "a+b=c", "(paren)", "[bracket]", "{brace}",
    "#hash", "@at", "~tilde", "*star*", "?question", "e-mail@example.com",
    "e\u0301", "\u0301", "\u0301\u0301", "e\u0301\u0302", "o\u0308\u0304",
    "\u200bzero width", "zwj\u200dhere", "rtl עברית", "עברית", "العربية", "कृपया",
    "ไทย", "ελληνικά English mix", "mix русский english", "Ǆ dz digraph",
    b"\xff\xfeinvalid utf8", b"bad\x80byte", b"trunc\xe2\x82", b"\xc3(", b"ok\xc3\xa9ok",
    b"ove\xc0\xafrlong", b"sur\xed\xa0\x80rogate",
    b"crlf line\r", b"nul\x00byte", b"\r", b"tab\tand\x0bvtab\x0c",
]


def long_lines(rng):
    """Very long lines (10k+ characters), in several shapes."""
    out = []
    out.append("a" * 12000)
    out.append("x" * 10000 + "needle" + "y" * 10000)
    out.append(" ".join(rng.choice(WORDS) for _ in range(2500)))
    out.append("é" * 6000 + "end")
    out.append("/".join(rng.choice(WORDS) for _ in range(1800)) + "/last.txt")
    out.append("б" * 5000 + "й" * 5000 + " tail")
    out.append("   " + "mid" * 4000 + "   ")
    out.append("".join(rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFé ") for _ in range(15000)))
    return out


def generated_lines(rng, count):
    """Random lines from words, paths and separators, in mixed case."""
    seps = [" ", "/", "_", "-", ".", "", "  ", "|", "'", "^", "$", "!", "\\"]
    out = []
    for _ in range(count):
        n = rng.randint(1, 5)
        parts = []
        for _ in range(n):
            w = rng.choice(WORDS)
            r = rng.random()
            if r < 0.15:
                w = w.upper()
            elif r < 0.3:
                w = w.capitalize()
            elif r < 0.4:
                w = unicodedata.normalize("NFD", w)
            parts.append(w)
        line = parts[0]
        for p in parts[1:]:
            line += rng.choice(seps) + p
        if rng.random() < 0.1:
            line = " " * rng.randint(1, 3) + line
        if rng.random() < 0.1:
            line = line + " " * rng.randint(1, 3)
        out.append(line)
    return out


def build_input(rng, generated):
    lines = []
    for item in FIXED_LINES:
        lines.append(item if isinstance(item, bytes) else item.encode())
    for item in long_lines(rng) + generated_lines(rng, generated):
        lines.append(item.encode())
    return lines


# ---------------------------------------------------------------------------------------
# Queries

FIXED_QUERIES = [
    # fuzzy
    "a", "ab", "abc", "foo", "fb", "fbr", "smf", "srcmain", "usrlibpy", "pkq", "mkf",
    "needle", "xxxxneedle", "end", "tail", "z", "zz", "q", "1", "123", ".", "/", "-", "_",
    # exact, prefix, suffix, equal
    "'foo", "'bar", "'oba", "'sw", "'needle", "'e", "'é", "^foo", "^src", "^Sources", "^a",
    "^x", "^ ", "^lead", "^trail", "^both", "swift$", "bar$", "foo$", "spaces$", "tail$",
    "^foobar$", "^FOOBAR$", "^foo bar$", "^a$", "^x$", "^abc$", "^café$", "^cafe$",
    "^x$ | ^a$", "^cafe\\ au\\ lait$", "^both\\ sides$", "^\\ \\ both$", "sides\\ \\ $",
    "^\\ lead", "^\\ ", "\\ $", "^nbsp", "trailing$", "^ideographic", "^\u3000", "\u00a0$",
    # 'word' (exact at word boundaries)
    "'foo'", "'bar'", "'a'", "'it'", "'s'", "'pizza'", "'東京'", "'quoted'", "'word'",
    "'café'", "'cafe'", "'hello'", "'world'", "'qux'", "'foo.bar'", "'foo bar'", "!'foo'",
    "'foo'$", "^'foo'", "'foo' | 'bar'", "''", ", '", "'x'", "'ab'", "'é'", "'e'",
    "'Foo'", "'FOO'", "'main'", "'swift'", "'Москва'", "'москва'", "'ελλαδα'",
    # negation
    "!foo", "!a", "!'foo", "!^foo", "!foo$", "!^foo$", "!é", "!e", "!fb", "!'fb",
    "foo !bar", "!foo !bar", "!^S !^T", "a !b !c", "'a !'b",
    # OR groups
    "foo | bar", "foo | bar | baz", "^src | ^Tests", "swift$ | md$", "x | !a",
    "foo | !bar", "| foo", "foo |", "foo | | bar", "a | b c | d", "|", "||", "a || b",
    # escaped space
    "foo\\ bar", "foo\\ \\ bar", "a\\ b", "\\ ", "'foo\\ bar", "o\\ b",
    # smart case
    "Foo", "FOO", "fOO", "Café", "CAFÉ", "İstanbul", "Istanbul", "ISTANBUL", "Straße",
    "Москва", "МОСКВА", "Σοφία", "ΣΟΦΙΑ", "camelCase", "HTTP", "XML", "Readme", "CC",
    # accents and folding
    "cafe", "café", "cafe\u0301", "resume", "résumé", "naive", "naïve", "nai\u0308ve",
    "angstrom", "ångström", "soren", "søren", "lodz", "łódź", "dorde", "đorđe", "strasse",
    "straße", "ss", "ß", "istanbul", "ıslak", "islak", "ilik", "ı", "i", "İ",
    "tieng viet", "tiếng", "nguyen", "pho", "duong", "ha noi", "e\u0301", "\u0301",
    "ae", "æ", "oe", "ǆ", "dz", "fi", "file", "kelvin k", "k", "a sign", "b", "e",
    # Cyrillic and Greek
    "москва", "привет", "мир", "йогурт", "иогурт", "й", "и", "ёлка", "елка", "ё", "е",
    "киев", "київ", "ї", "і", "ўзбек", "узбек", "ганок", "ґанок",
    "ελλαδα", "ελλάδα", "αληθεια", "ἀλήθεια", "αλφα", "άλφα", "α", "ά", "ωμεγα", "ι", "ϊ",
    "ΐ", "σοφια", "λογος", "λόγος",
    # CJK, kana, Korean, emoji, fullwidth, other scripts
    "東京", "京", "日本", "テキスト", "北京", "文件", "서울", "한", "か", "が", "かき",
    "ハ", "パ", "ｶ", "🍕", "🎉", "pizza", "👍", "👍🏽", "family", "🇫🇷",
    "full", "fullwidth", "ＦＵＬＬ", "ｆｕｌｌ", "full:width", "width/path", "123", "１",
    "עברית", "עב", "العربية", "कृपया", "ไทย",
    # punctuation and metacharacters
    "'|", "a|b", "'a|b", "pipe|line", "'it's", "it's", "'quoted", "''", "'''", "don't",
    "^^", "^^caret", "caret^", "^caret^", "$", "$$", "$dollar", "'$", "dollar$$", "\\$",
    "!", "!!", "!!bang", "bang!", "'!", "back\\slash", "\\", "\\\\", "C:\\Windows",
    "'\\", "a\\", "100%", "a+b", "(paren", "[", "{brace}", "#", "@", "~", "*", "?",
    "\\ b", "tab\there",
    # multi-term
    "foo bar", "bar foo", "src swift", "sources pick query", "'Sources 'Query",
    "^S swift$", "café lait", "cafe lait", "мир привет", "user local share",
    "py lib usr", "a b c d e", "  foo  ", " foo", "foo ", "foo  bar", "'e 'a",
    "^\u0301", "e \u0301", "x y", "mid mid", "'mid$", "^mid", "^   mid",
    # odd spacing: tabs and no-break spaces are not separators; spaces alone are empty
    " ", "   ", "'", "\tfoo", "foo\tbar", "^\tlead", "foo\u00a0bar", "^\u00a0nbsp", "nbsp\u00a0$",
    "\\", "\\\\ ", "a\\\\ b", "\\ \\ ", "|foo", "foo|", "'|'", "!|", "^|", "|$",
    # across a tab: one title to fzf, so to pick without --palette
    "mainint", "returnq", "ada fix", "hopper compiler", "lovelace$", "^a1b", "^grace", "f5$",
    "savewrite", "createadd", "^create", "go to", "jump", "ctrl-n$", "\tf5",
]


def random_queries(rng, lines, count):
    texts = [l.decode("utf-8", "replace") for l in lines if l]
    texts = [t for t in texts if t.strip()]
    out = []

    def piece(text):
        if len(text) > 200:
            start = rng.randrange(0, len(text) - 50)
            text = text[start:start + 50]
        r = rng.random()
        if r < 0.45:
            # substring
            a = rng.randrange(0, len(text))
            b = min(len(text), a + rng.randint(1, 8))
            s = text[a:b]
        else:
            # subsequence
            k = min(len(text), rng.randint(1, 6))
            idx = sorted(rng.sample(range(len(text)), k))
            s = "".join(text[i] for i in idx)
        r = rng.random()
        if r < 0.2:
            s = s.lower()
        elif r < 0.3:
            s = s.upper()
        elif r < 0.4:
            s = unicodedata.normalize("NFD", s)
        elif r < 0.5:
            s = "".join(c for c in unicodedata.normalize("NFD", s)
                        if not unicodedata.combining(c))
        s = s.replace("\\", "\\\\") if rng.random() < 0.5 else s
        s = s.replace(" ", "\\ ") if rng.random() < 0.7 else s.replace(" ", "")
        if not s.strip():
            s = "x"
        return s

    for _ in range(count):
        terms = []
        for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
            t = piece(rng.choice(texts))
            r = rng.random()
            if r < 0.12:
                t = "'" + t
            elif r < 0.22:
                t = "^" + t
            elif r < 0.32:
                t = t + "$"
            elif r < 0.37:
                t = "^" + t + "$"
            elif r < 0.45:
                t = "!" + t
            elif r < 0.5:
                t = "!'" + t
            elif r < 0.53:
                t = "!^" + t
            elif r < 0.56:
                t = "!" + t + "$"
            elif r < 0.61:
                t = "'" + t + "'"
            terms.append(t)
        q = terms[0]
        for t in terms[1:]:
            q += " | " + t if rng.random() < 0.25 else " " + t
        out.append(q)
    return out


# ---------------------------------------------------------------------------------------
# Running the two programs

def go_decode(raw):
    """The line as fzf prints it: each invalid UTF-8 byte becomes U+FFFD, like Go."""
    out = []
    i = 0
    n = len(raw)
    while i < n:
        b = raw[i]
        width = 1 if b < 0x80 else 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF \
            else 4 if 0xF0 <= b <= 0xF4 else 0
        if width:
            try:
                out.append(raw[i:i + width].decode("utf-8"))
                i += width
                continue
            except UnicodeDecodeError:
                pass
        out.append("\ufffd")
        i += 1
    return "".join(out).encode("utf-8")


def show(text):
    """repr() that also escapes combining marks, odd spaces and format characters."""
    out = []
    for c in repr(text):
        cat = unicodedata.category(c)
        if ord(c) >= 0x80 and (cat[0] in "MZC" or cat == "Sk"):
            out.append("\\u%04x" % ord(c) if ord(c) < 0x10000 else "\\U%08x" % ord(c))
        else:
            out.append(c)
    return "".join(out)


def run(cmd, data):
    proc = subprocess.run(cmd, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode not in (0, 1):
        raise RuntimeError("%s exited %d: %s" % (cmd[0], proc.returncode,
                                                 proc.stderr.decode("utf-8", "replace")))
    out = proc.stdout
    if out.endswith(b"\n"):
        out = out[:-1]
    return out.split(b"\n") if out else []


class Runner:
    def __init__(self, pick, fzf, lines):
        self.pick = pick
        self.fzf = fzf
        self.lines = lines
        self.data = b"\n".join(lines) + b"\n"
        # Map printed bytes back to input line numbers (fzf re-encodes invalid UTF-8).
        self.ids = {}
        for i, l in enumerate(lines):
            self.ids.setdefault(l, set()).add(i)
        self.fzf_ids = {}
        for i, l in enumerate(lines):
            self.fzf_ids.setdefault(go_decode(l), set()).add(i)

    def pick_set(self, query, flags, data=None, ids=None):
        # No --plain: without --palette a tab is text, as in fzf.
        out = run([self.pick, "--filter", query] + flags, data or self.data)
        return self._ids(out, ids or self.ids, "pick")

    def fzf_set(self, query, flags, data=None, ids=None):
        out = run([self.fzf, "--filter", query] + flags, data or self.data)
        return self._ids(out, ids or self.fzf_ids, "fzf")

    @staticmethod
    def _ids(out, table, who):
        found = set()
        for l in out:
            if l not in table:
                raise RuntimeError("%s printed a line not in the input: %r" % (who, l))
            found |= table[l]
        return found


# ---------------------------------------------------------------------------------------
# Classifying differences

def is_latin(c):
    name = unicodedata.name(c, "")
    return "LATIN" in name or "FULLWIDTH" in name or name in ("KELVIN SIGN", "ANGSTROM SIGN")


def base_letter(c):
    """`c` without its diacritics, when it is a letter with diacritics; else None."""
    d = unicodedata.normalize("NFD", c)
    if len(d) > 1 and not unicodedata.combining(d[0]) \
            and all(unicodedata.combining(x) for x in d[1:]):
        return d[0]
    return None


def non_latin_diacritics(text):
    return {c for c in text if ord(c) >= 0x80 and not is_latin(c) and base_letter(c)}


def query_terms(query):
    """The query's terms, roughly as fzf splits them (for classification only)."""
    return [t.replace("\t", " ") for t in query.replace("\\ ", "\t").split(" ") if t]


class PickFolding:
    """pick's folding of single characters, read from its generated table."""

    def __init__(self, table_path):
        self.lower, self.strip = {}, {}
        if not os.path.exists(table_path):
            return
        text = open(table_path, encoding="utf-8").read()
        body = text.split("let foldTableRows: [UInt32] = [", 1)[1].split("]", 1)[0]
        nums = [int(x, 16) for x in body.replace(",", " ").split()]
        for k in range(0, len(nums), 4):
            cp, lo, st, _ = nums[k:k + 4]
            self.lower[chr(cp)] = chr(lo)
            self.strip[chr(cp)] = chr(st)

    def categories(self, text, flags):
        """Characters of `text` whose folding is a known, deliberate difference from fzf:
        category name -> {char: what fzf should see instead}."""
        literal = "--literal" in flags
        cats = {}
        for c in set(text):
            if ord(c) < 0x80:
                continue
            st = self.strip.get(c, c)
            if not literal and st != c:
                cat = "Latin folding fzf's table lacks" if is_latin(c) else "non-Latin folding"
                cats.setdefault(cat, {})[c] = st
            lo = self.lower.get(c, c)
            if "+i" not in flags and lo != c and unicodedata.category(c) != "Lu":
                cats.setdefault("lower-casing fzf's fuzzy skips (not Lu)", {})[c] = lo
        return cats


def classify(runner, folding, query, flags, pick_only, fzf_only):
    """Splits the differing lines into (expected, unexpected) lists of (line, reason).

    A difference is expected when it comes from pick's deliberate folding: fzf, given the
    line with those letters already folded as pick folds them, agrees with pick. Letters
    the query itself contains are left alone (a term with diacritics matches as typed).
    Both directions count: a negated term makes pick match fewer lines.
    """
    expected, unexpected = [], []
    literal = "--literal" in flags
    in_query = set(query) | set(query.lower())
    query_nl = any(non_latin_diacritics(t) for t in query_terms(query))

    def query_diacritic_case(i, pick_matched):
        # A term that carries a (non-Latin) diacritic matches as typed in pick, in every
        # script; fzf still folds that term's Latin letters.
        text = runner.lines[i].decode("utf-8", "replace")
        return not pick_matched and not literal and query_nl and any(ord(c) >= 0x80 for c in text)

    pending = []  # (line, pick matched, {category: substitutions})
    for i in sorted(pick_only | fzf_only):
        pick_matched = i in pick_only
        text = runner.lines[i].decode("utf-8", "replace")
        cats = {}
        for name, subst in folding.categories(text, flags).items():
            if not name.startswith("lower-casing"):
                subst = {c: r for c, r in subst.items()
                         if c not in in_query and c.lower() not in in_query}
            if subst:
                cats[name] = subst
        if cats:
            pending.append((i, pick_matched, cats))
        elif query_diacritic_case(i, pick_matched):
            expected.append((i, "expected (non-Latin diacritic in query)"))
        else:
            unexpected.append((i, "only pick matches" if pick_matched else "only fzf matches"))

    # Try each category alone, then all together.
    names = ["non-Latin folding", "Latin folding fzf's table lacks",
             "lower-casing fzf's fuzzy skips (not Lu)"]
    attempts = [[n] for n in names] + [names]
    for attempt in attempts:
        if not pending:
            break
        tried = []
        for i, pick_matched, cats in pending:
            subst = {}
            for n in attempt:
                subst.update(cats.get(n, {}))
            if subst:
                text = runner.lines[i].decode("utf-8", "replace")
                tried.append((i, pick_matched, cats, "".join(subst.get(c, c) for c in text)))
        if not tried:
            continue
        folded = [t[3].encode() for t in tried]
        ids = {}
        for k, l in enumerate(folded):
            ids.setdefault(go_decode(l), set()).add(k)
        found = runner.fzf_set(query, flags, b"\n".join(folded) + b"\n", ids)
        solved = set()
        for k, (i, pick_matched, cats, _) in enumerate(tried):
            if (k in found) == pick_matched:
                label = " + ".join(n for n in attempt if n in cats)
                expected.append((i, "expected (%s)" % label))
                solved.add(i)
        pending = [p for p in pending if p[0] not in solved]
    rest = [(i, m) for i, m, _ in pending]
    pending = []
    for i, pick_matched in rest:
        if query_diacritic_case(i, pick_matched):
            expected.append((i, "expected (non-Latin diacritic in query)"))
        else:
            pending.append((i, pick_matched))
    pending += [(i, "only pick" in r) for i, r in unexpected]
    unexpected = []

    # Last: the same letters in the query and the line (`ᴇᴏ ord` on `ʜᴇʟʟᴏ ᴡᴏʀʟᴅ`): fold
    # them on both sides for fzf.
    if pending:
        def fold_all(text):
            subst = {}
            for name, m in folding.categories(text, flags).items():
                if not name.startswith("lower-casing"):
                    subst.update(m)
            return "".join(subst.get(c, c) for c in text)
        folded_query = fold_all(query)
        if folded_query != query:
            folded = [fold_all(runner.lines[i].decode("utf-8", "replace")).encode() for i, _ in pending]
            ids = {}
            for k, l in enumerate(folded):
                ids.setdefault(go_decode(l), set()).add(k)
            found = runner.fzf_set(folded_query, flags, b"\n".join(folded) + b"\n", ids)
            still = []
            for k, (i, pick_matched) in enumerate(pending):
                if (k in found) == pick_matched:
                    expected.append((i, "expected (folded letters in the query too)"))
                else:
                    still.append((i, pick_matched))
            pending = still
    for i, pick_matched in pending:
        unexpected.append((i, "only pick matches" if pick_matched else "only fzf matches"))
    return expected, unexpected


# ---------------------------------------------------------------------------------------

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pick", default=os.path.join(here, "..", ".build", "debug", "pick"))
    ap.add_argument("--fzf", default="fzf")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random", type=int, default=300, help="random queries (default 300)")
    ap.add_argument("--lines", type=int, default=300, help="random input lines (default 300)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--show", type=int, default=8, help="differing lines shown per case")
    ap.add_argument("--verbose", action="store_true", help="also print expected differences")
    ap.add_argument("--save-input", metavar="FILE", help="write the generated input here")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    lines = build_input(rng, args.lines)
    queries = list(dict.fromkeys(FIXED_QUERIES + random_queries(rng, lines, args.random)))
    if args.save_input:
        with open(args.save_input, "wb") as f:
            f.write(b"\n".join(lines) + b"\n")
    version = subprocess.run([args.fzf, "--version"], stdout=subprocess.PIPE).stdout.decode().strip()
    print("fzf %s, pick %s" % (version, args.pick))
    print("%d input lines, %d queries x %d flag sets" % (len(lines), len(queries), len(FLAG_SETS)))

    runner = Runner(args.pick, args.fzf, lines)
    folding = PickFolding(os.path.join(here, "..", "Sources", "PickCore", "FoldTable.swift"))
    cases = [(q, f) for q in queries for f in FLAG_SETS]

    def compare(case):
        q, f = case
        p, z = runner.pick_set(q, f), runner.fzf_set(q, f)
        if p == z:
            return case, [], []
        exp, unexp = classify(runner, folding, q, f, p - z, z - p)
        return case, exp, unexp

    n_exp_cases = n_unexp_cases = n_exp_lines = n_unexp_lines = 0
    reasons = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for (q, f), exp, unexp in pool.map(compare, cases):
            for _, r in exp:
                reasons[r] = reasons.get(r, 0) + 1
            if exp:
                n_exp_cases += 1
                n_exp_lines += len(exp)
            if unexp:
                n_unexp_cases += 1
                n_unexp_lines += len(unexp)
            shown = unexp + (exp if args.verbose else [])
            if not shown:
                continue
            print("\nquery %s flags %r:" % (show(q), " ".join(f) or "(none)"))
            for i, reason in shown[:args.show]:
                line = lines[i]
                text = line.decode("utf-8", "replace")
                if len(text) > 120:
                    text = text[:60] + "…(%d chars)…" % len(text) + text[-40:]
                print("  %-40s %s" % (reason, show(text) if b"\xef\xbf\xbd" not in line else repr(line[:120])))
            if len(shown) > args.show:
                print("  … and %d more" % (len(shown) - args.show))

    print("\nsummary: %d queries x %d flag sets = %d cases compared" %
          (len(queries), len(FLAG_SETS), len(cases)))
    print("  unexpected differences: %d cases, %d lines" % (n_unexp_cases, n_unexp_lines))
    print("  expected differences:   %d cases, %d lines" % (n_exp_cases, n_exp_lines))
    for r, n in sorted(reasons.items()):
        print("    %s: %d lines" % (r, n))
    sys.exit(1 if n_unexp_lines else 0)


if __name__ == "__main__":
    main()
