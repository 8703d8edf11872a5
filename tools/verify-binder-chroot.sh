#!/usr/bin/env bash
# Check binder/Dockerfile's steps where docker is not available: a fresh clone in a clean Debian
# bookworm chroot (debootstrap), the Dockerfile's two RUN steps as they are written there (as
# root, then as the uid-1000 notebook user), then JupyterLab started as Binder would and asked
# for notebook 00 and the hipwb-lab extension's assets.
#
#   sudo tools/verify-binder-chroot.sh CHROOT [PORT]
#
# CHROOT: a directory made by `debootstrap --variant=minbase bookworm CHROOT` (reused as is:
# run it on a fresh one). Needs root (chroot, mount). The host's apt sources, pip config and CA
# bundle are copied in (pip's local wheel folders bind-mounted read-only), nothing else.
set -euo pipefail
ROOT=$(realpath "$1"); PORT=${2:-18888}
REPO=$(cd "$(dirname "$0")/.." && pwd)
U=jovyan; H=/home/$U

cp /etc/apt/sources.list.d/debian.sources "$ROOT/etc/apt/sources.list.d/" 2>/dev/null || true
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$ROOT/etc/pip.conf"
mounts=()
cleanup() { for m in "${mounts[@]}"; do umount -l "$m" || true; done; }
trap cleanup EXIT
mount -t proc proc "$ROOT/proc"; mounts+=("$ROOT/proc")
mount --bind /dev "$ROOT/dev"; mounts+=("$ROOT/dev")
for d in /opt/wheels /opt/pypi /opt/pypi-more; do
    [ -d "$d" ] || continue
    mkdir -p "$ROOT$d"; mount --bind -o ro "$d" "$ROOT$d"; mounts+=("$ROOT$d")
done

# the Dockerfile: COPY tools/setup-system.sh; RUN setup-system.sh binder; useradd
cp "$REPO/tools/setup-system.sh" "$ROOT/tmp/setup-system.sh"
chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    /bin/bash -c "/tmp/setup-system.sh binder && rm /tmp/setup-system.sh \
                  && (id $U || useradd --create-home --uid 1000 $U)"
# This sandbox reaches PyPI through a TLS proxy whose CA only the host's bundle has (pip.conf
# points at it): a host fact, not part of the image, so it is copied in after the apt steps.
cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/ca-certificates.crt"
# COPY . $H/hipwb -- a fresh clone of the committed tree, so only committed files count
rm -rf "$ROOT$H/hipwb"
git clone -q "$REPO" "$ROOT$H/hipwb"
chroot "$ROOT" chown -R 1000 "$H/hipwb"
# USER jovyan; RUN make setup EXTRAS=dev,binder
chroot --userspec=1000:1000 "$ROOT" /usr/bin/env -i PATH=/usr/bin:/bin HOME=$H USER=$U \
    /bin/bash -c "cd $H/hipwb && make setup EXTRAS=dev,binder"

# CMD: jupyter lab on notebooks/ (Binder runs its own `jupyter` command in the same venv)
chroot --userspec=1000:1000 "$ROOT" /usr/bin/env -i PATH=$H/hipwb/.venv/bin:/usr/bin:/bin \
    HOME=$H USER=$U /bin/bash -c "cd $H/hipwb && .venv/bin/jupyter labextension list 2>&1"
chroot --userspec=1000:1000 "$ROOT" /usr/bin/env -i PATH=$H/hipwb/.venv/bin:/usr/bin:/bin \
    HOME=$H USER=$U /bin/bash -c "cd $H/hipwb && exec jupyter lab --ip=127.0.0.1 --port=$PORT \
    --no-browser --notebook-dir=notebooks --IdentityProvider.token=binder-check" \
    > "$ROOT/tmp/lab.log" 2>&1 &
LAB=$!
trap 'kill $LAB 2>/dev/null || true; wait $LAB 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 120); do
    curl -fs "http://127.0.0.1:$PORT/api/status?token=binder-check" >/dev/null && break
    sleep 0.5
done
echo "== notebook 00 from the chroot's JupyterLab:"
curl -fs "http://127.0.0.1:$PORT/api/contents/00_getting_started.ipynb?token=binder-check" \
    | python3 -c 'import json,sys; d=json.load(sys.stdin); c=d["content"]["cells"];
print(d["name"], len(c), "cells;", sum("%%hipkernel" in "".join(x["source"]) for x in c), "%%hipkernel cells")'
echo "== /lab/tree/00_getting_started.ipynb:"
curl -fs -o /dev/null -w "HTTP %{http_code}\n" \
    "http://127.0.0.1:$PORT/lab/tree/00_getting_started.ipynb?token=binder-check"
echo "== hipwb-lab in the page config and its remoteEntry served:"
load=$(curl -fs "http://127.0.0.1:$PORT/lab?token=binder-check" | python3 -c '
import json, re, sys
cfg = json.loads(re.search(r"id=.jupyter-config-data.[^>]*>(.*?)</script>", sys.stdin.read(), re.S)[1])
print(next(e["load"] for e in cfg["federated_extensions"] if e["name"] == "hipwb-lab"))')
echo "load: $load"
curl -fs -o /dev/null -w "HTTP %{http_code} %{size_download} bytes\n" \
    "http://127.0.0.1:$PORT/lab/extensions/hipwb-lab/$load?token=binder-check"
echo "PORT=$PORT (lab running until this script exits)"
if [ -n "${HOLD:-}" ]; then sleep "$HOLD"; fi
