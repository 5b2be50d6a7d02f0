#!/usr/bin/env bash
# Copies the golden vectors of the project's spec digest (a directory outside the clone: the
# argument, else where the project's machines keep the digest) into testkit, so that a clean clone
# tests against them without the shared folder, and regenerates the index the loader reads.
# The copy is never edited by hand: VectorsCopyTest fails if it drifts from the shared original.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-$here/../shared/spec/vectors}
dst=$here/testkit/src/main/resources/vectors
rm -rf "$dst"
mkdir -p "$dst"
(cd "$src" && find . -type f \( -name '*.vec' -o -name '*.stream' -o -name '*.pcap' -o -name 'all-vectors.json' -o -name 'README.md' \) \
   -not -path './tools/*' | sort) > /tmp/vectors-index.$$
while read -r f; do mkdir -p "$dst/$(dirname "$f")"; cp "$src/$f" "$dst/$f"; done < /tmp/vectors-index.$$
sed 's|^\./||' /tmp/vectors-index.$$ > "$dst/index.txt"
rm -f /tmp/vectors-index.$$
echo "copied $(wc -l < "$dst/index.txt") files into $dst"
