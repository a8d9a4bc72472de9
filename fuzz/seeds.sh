#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets in fuzz/corpus/<target>/ from
# the repository's fixtures: Markdown notes, INI and text files, source code,
# the same in CRLF and (where iconv is installed) UTF-16 and legacy
# encodings, and JSON-RPC lines. Run it once before fuzzing; running it again
# adds the seeds back without removing what the fuzzer found.
set -euo pipefail
cd "$(dirname "$0")/.."

corpus=fuzz/corpus
mkdir -p "$corpus"/{jsonrpc_framing,markdown_targets,range_patch,fuzzy_edit,encoding_roundtrip,syntax_gate}

markdown=(tests/fixtures/*.md example-vault/README.md example-vault/projects/*.md CONTRIBUTING.md)
plain=(tests/fixtures/*.ini tests/fixtures/*.txt example-vault/config/*.ini)
source=(example-vault/code/*.py src/text/mod.rs src/text/format.rs src/text/hash.rs src/text/indent.rs)

crlf() { sed 's/$/\r/' "$1"; }
# One seed: a name, a prefix of choice bytes (printf format), a file's text.
seed() { { printf "$2"; cat; } >"$corpus/$1"; }

n=0
for f in "${markdown[@]}"; do
    n=$((n + 1))
    seed "markdown_targets/md$n" '' <"$f"
    crlf "$f" | seed "markdown_targets/md$n-crlf" ''
    seed "range_patch/md$n" '\000\001\001\004\002\001\002\000' <"$f"
    crlf "$f" | seed "range_patch/md$n-crlf" '\001\001\002\005\003\003\004\001' 
    seed "encoding_roundtrip/md$n" '\000\000' <"$f"
    crlf "$f" | seed "encoding_roundtrip/md$n-crlf" '\000\002\005\003\007\040\002\011' 
done
# A heading query after the text.
{ cat tests/fixtures/guide.md; printf '\000## Setup'; } >"$corpus/markdown_targets/query"

for f in "${plain[@]}"; do
    n=$((n + 1))
    seed "range_patch/plain$n" '\000\001\002\004\001\005\003\002' <"$f"
    seed "encoding_roundtrip/plain$n" '\000\001\003\002\011' <"$f"
    seed "fuzzy_edit/plain$n" '\000\000\001\002\003\000\000\002' <"$f"
done

for f in "${source[@]}"; do
    n=$((n + 1))
    # Exact copy, a typo, re-indented, elided, CRLF search: the choice bytes
    # pick the drift (see fuzz_targets/fuzzy_edit.rs).
    seed "fuzzy_edit/src$n-exact" '\000\000\001\003\002\000\003\000\000' <"$f"
    seed "fuzzy_edit/src$n-typo" '\000\000\001\005\003\001\003\002\004\004\000\000' <"$f"
    seed "fuzzy_edit/src$n-indent" '\000\000\001\010\004\001\001\000\000\004\001\000' <"$f"
    seed "fuzzy_edit/src$n-elided" '\000\000\001\002\007\001\006\000\001\003\002\000' <"$f"
    crlf "$f" | seed "fuzzy_edit/src$n-crlf" '\000\000\001\004\003\001\010\000\000\007\000\000'
    seed "range_patch/src$n" '\000\001\001\005\003\002\001\000' <"$f"
done

if command -v iconv >/dev/null; then
    for f in tests/fixtures/guide.md example-vault/projects/garden.md; do
        n=$((n + 1))
        { printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$f"; } | seed "encoding_roundtrip/utf16le$n" '\000\001\004\003\010'
        iconv -f UTF-8 -t UTF-16BE "$f" | seed "encoding_roundtrip/utf16be$n" '\003\002\005\004\002\001\002\001'
    done
    printf 'caf\303\251 na\303\257ve r\303\251sum\303\251\r\n' | iconv -f UTF-8 -t WINDOWS-1252 |
        seed encoding_roundtrip/cp1252 '\004\001\002\002\002'
    printf '\346\227\245\346\234\254\350\252\236\n\343\201\202\n' | iconv -f UTF-8 -t SHIFT_JIS |
        seed encoding_roundtrip/sjis '\005\001\000\001\002'
    printf '\355\225\234\352\265\255\354\226\264\n' | iconv -f UTF-8 -t EUC-KR |
        seed encoding_roundtrip/euckr '\006\001\001\001\014'
fi
printf '\357\273\277# BOM\r\n\r\ntext\r\n' | seed encoding_roundtrip/bom '\000\001\000\003\006'

# The syntax gate (see fuzz_targets/syntax_gate.rs): language, shape, depth
# (an index into the language's table), offsets (\220: none), step, count
# (an index too), then unit NUL body. Every language gets each shape at a
# shallow depth and at each depth of its table beyond the shallow ones, with
# units and steps that suit it; each source fixture is a body.
gate="$corpus/syntax_gate"
o() { printf '\\%03o' "$1"; }
# By the order of Language::ALL: Rust, Python, Go, JavaScript, TypeScript,
# TSX, JSON, YAML, TOML, C, C++, Java, Bash, HTML, CSS.
specific=(1 7 1 1 1 1 1 5 1 1 1 1 3 5 1)
units=('fn f() {' 'if x:' 'func f() {' 'if (x) {' 'if (x) {' '<a>{' '[' 'a:' '[a]' '{' '{' '{' 'if x; then' '<div>' 'a {')
lines=('(' 'f"{' '(' '`${' '(' '<a>' '[' '- ' '[' '(' '(' '(' '$(' '<x-a>' '(')
nest_steps=(4 5 0 6 2 3 1 1 1 0 0 2 7 3 2)
stair_steps=(0 5 4 1 1 1 1 0 1 4 4 3 4 1 1)
token_steps=(4 8 0 6 0 3 0 6 0 1 5 1 2 3 1)
open_steps=(0 5 14 26 20 38 20 21 14 14 14 14 46 36 14)
for lang in $(seq 0 14); do
    l=$(o "$lang")
    for i in 0 $(seq 4 $((4 + specific[lang] + 1))); do
        d=$(o "$i")
        unit=${units[lang]}
        printf "${l}\\000${d}\\220$(o "${nest_steps[lang]}")${d}x" >"$gate/nest-$lang-$i"
        printf "${l}\\001${d}\\220$(o "${stair_steps[lang]}")${d}%s\\000x" "$unit" >"$gate/stair-$lang-$i"
        printf "${l}\\202${d}\\220$(o "${stair_steps[lang]}")${d}%s\\000x" "$unit" >"$gate/brackets-$lang-$i"
        printf "${l}\\003${d}\\220\\000${d}%s\\000x" "${lines[lang]}" >"$gate/line-$lang-$i"
        printf "${l}\\004${d}\\220$(o "${token_steps[lang]}")${d}a\\000x" >"$gate/token-$lang-$i"
        printf "${l}\\205${d}\\220$(o "${open_steps[lang]}")${d}%s\\000x" "$unit" >"$gate/open-$lang-$i"
    done
done
for f in "${source[@]}"; do
    n=$((n + 1))
    seed "syntax_gate/src$n" '\001\006\000\220\000\000\000' <"$f"
done

# JSON-RPC lines as clients send them, and as they get them wrong.
rpc="$corpus/jsonrpc_framing"
init='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}'
printf '\000%s\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n' "$init" >"$rpc/session"
printf '\003\001\000\007%s\r\n{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"TextRead","arguments":{"filePath":"a.md"}}}' "$init" >"$rpc/split"
printf '\000{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":5}}\n{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","arguments":[1]}}\n{"jsonrpc":"2.0","id":4,"method":"tools/call"}\n' >"$rpc/bad-calls"
printf '\000not json\n[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n{"jsonrpc":"1.0","id":1,"method":"ping"}\n{"id":1}\n\n  \n{"jsonrpc":"2.0","id":null,"method":7}\n' >"$rpc/garbage"
printf '\001\002\000\001{"jsonrpc":"2.0","id":9,"result":{}}\n{"jsonrpc":"2.0","id":9,"error":{"code":-1,"message":"m"}}\n{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}\n' >"$rpc/responses"

echo "seeded $(find "$corpus" -type f | wc -l) files in $corpus"
