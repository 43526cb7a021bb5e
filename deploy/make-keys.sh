#!/bin/sh
# Make the keys keeper keeps for itself (issue 22) in a keeper env file:
#   KEEPER_DATA_KEY    seals the secrets keeper stores (users' Server酱 SendKeys)
#   KEEPER_WEB_SECRET  signs cookies, mini-program tokens and link codes
# Each is a random 256-bit key of its own, apart from WECOM_SECRET and every channel's
# token, so each can rotate alone (docs/operations.md, "Rotating a secret").
#
#   sudo sh deploy/make-keys.sh /etc/keeper/keeper.env     # systemd
#   sh deploy/make-keys.sh deploy/keeper.env               # Docker Compose
#
# A key already set is kept: changing one is a rotation, which moves the old value to
# its _PREVIOUS setting first. An empty `NAME=` line is filled in, a missing one is
# appended; the file keeps its owner and mode. It prints the names it set, never a value.
# Keep a copy of KEEPER_DATA_KEY off the server, apart from the backups.
set -eu
umask 077

file=${1:-}
if [ -z "$file" ] || [ ! -f "$file" ]; then
    echo "make-keys: usage: make-keys.sh ENV_FILE (an existing file: copy deploy/env.example first)" >&2
    exit 2
fi

new_key() {
    # 32 random bytes as URL-safe base64 without padding: 43 characters.
    head -c 32 /dev/urandom | base64 | tr -d '\n=' | tr '+/' '-_'
}

for name in KEEPER_DATA_KEY KEEPER_WEB_SECRET; do
    if grep -Eq "^${name}=[[:space:]]*[^[:space:]]" "$file"; then
        echo "make-keys: ${name} is already set in ${file}: kept"
        continue
    fi
    value=$(new_key)
    if grep -Eq "^${name}=[[:space:]]*$" "$file"; then
        tmp=$(mktemp)
        awk -v name="$name" -v value="$value" '
            $0 ~ "^" name "=[[:space:]]*$" && !done { print name "=" value; done = 1; next }
            { print }
        ' "$file" >"$tmp"
        cat "$tmp" >"$file"  # in place: the file keeps its owner and mode
        rm -f "$tmp"
    else
        printf '%s=%s\n' "$name" "$value" >>"$file"
    fi
    echo "make-keys: ${name} set in ${file}"
done
