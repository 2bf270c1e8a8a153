#!/usr/bin/env bash
# A committed source revision as a plain tree, for perf/revision_ab.sh on the device machine (which
# receives a copy of the working tree without .git):
#
#   tools/export_rev.sh REV
#
# Writes `git archive REV` into .rev/<short sha>/ (git-ignored) with a file REVISION (full sha, commit
# date, subject) written last, and prints that folder relative to the repository root: name it in the
# device run's carry and pass it to perf/revision_ab.sh as OLD_SRC_DIR. A folder that already holds
# REVISION is kept as it is (a commit's tree never changes); one without it (an export cut short) is
# redone. Exit status: 0 done, 2 no such commit or the export failed.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -ne 1 ]]; then
  echo "usage: $0 REV" >&2
  exit 2
fi
if ! sha=$(git rev-parse --verify --quiet "$1^{commit}"); then
  echo "export_rev.sh: $1 names no commit" >&2
  exit 2
fi
dir=.rev/$(git rev-parse --short "$sha")
if [[ ! -f $dir/REVISION ]]; then
  rm -rf "$dir"
  mkdir -p "$dir"
  git archive --format=tar "$sha" | tar -x -C "$dir"
  git log -1 --format='%H %cI %s' "$sha" > "$dir/REVISION"
fi
echo "$dir"
