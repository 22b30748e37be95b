"""csource.py - reading C source as text for the project's checks (check-purity.sh,
check-rooms.py): comments and literals blanked out, line numbers kept."""
import re


def blank(text, keep_strings):
    """Return text with comments (and unless keep_strings, the insides of string and character
    literals) replaced by spaces. Newlines are kept, so line numbers stay right."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "/" and nxt == "/":
            j = i
            while j < n and text[j] != "\n":
                j += 2 if text[j] == "\\" and j + 1 < n else 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            if keep_strings:
                out.append(text[i:j])
            else:
                out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + text[j - 1])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)
