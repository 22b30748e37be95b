#!/usr/bin/env bash
# check-format.sh - check that every *.c and *.h under engine/ arena/ tests/ bench/ matches
# .clang-format (clang-format --dry-run --Werror). Lists the files that need formatting and
# exits non-zero if there are any. Fix them with: clang-format -i FILE...
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2

CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
if ! command -v "$CLANG_FORMAT" >/dev/null 2>&1; then
    echo "check-format: $CLANG_FORMAT not found (bash scripts/install-deps.sh installs it)" >&2
    exit 2
fi

mapfile -t files < <(find engine arena tests bench sdk/python/okr -type f \( -name '*.c' -o -name '*.h' \) \
                         2>/dev/null | LC_ALL=C sort)
if [ ${#files[@]} -eq 0 ]; then
    echo "check-format: no C files"
    exit 0
fi

bad=()
for f in "${files[@]}"; do
    if ! "$CLANG_FORMAT" --style=file --dry-run --Werror "$f" >/dev/null 2>&1; then
        bad+=("$f")
    fi
done

if [ ${#bad[@]} -ne 0 ]; then
    echo "check-format: ${#bad[@]} of ${#files[@]} files need formatting:"
    printf '  %s\n' "${bad[@]}"
    echo "check-format: see the changes with: $CLANG_FORMAT --dry-run FILE"
    echo "check-format: fix them with:        $CLANG_FORMAT -i FILE..."
    exit 1
fi
echo "check-format: ${#files[@]} files formatted correctly"
