#!/usr/bin/env bash
# Checks kviz's share-group simple assignor against Kafka's own classes:
# compiles SimpleAssignor (and what it needs: Uuid, TopicIdPartition, the
# group-coordinator-api interfaces, the 4.2+ builders) straight from the
# release branches of a Kafka git checkout with javac, wraps them in
# Oracle.java (which hands each group over as the coordinator does), and
# compares random groups with `kviz assign --strategy simple`.
#
#   scripts/share-oracle/run.sh KAFKA_GIT [SEED] [GROUPS] [VERSIONS]
#   e.g. scripts/share-oracle/run.sh /work/.mirror/confluentinc+kafka/repo 1 300 4.0,4.1,4.2
#
# KAFKA_GIT is a clone (bare is fine) with branches 4.0, 4.1 and 4.3 (4.2's
# assignor files are 4.3's). Needs java 17+, python3, go. NOCOLLIDE=1 leaves
# out member ids with equal hash codes; LARGE=1 adds groups of 100-200
# members and topics of up to 600 partitions. Exit 1 on any mismatch.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
kafka="$1"; seed="${2:-1}"; groups="${3:-200}"; versions="${4:-4.0,4.1,4.2}"
work="${WORK:-$(mktemp -d)}"
for b in 4.0 4.1 4.3; do
	src="$work/$b/src"; mkdir -p "$src" "$work/$b/classes"
	files=(clients/src/main/java/org/apache/kafka/common/Uuid.java
		clients/src/main/java/org/apache/kafka/common/errors/ApiException.java
		clients/src/main/java/org/apache/kafka/common/KafkaException.java
		clients/src/main/java/org/apache/kafka/common/annotation/InterfaceStability.java
		server-common/src/main/java/org/apache/kafka/server/common/TopicIdPartition.java
		group-coordinator/src/main/java/org/apache/kafka/coordinator/group/modern/MemberAssignmentImpl.java)
	files+=($(git -C "$kafka" ls-tree -r --name-only "$b" group-coordinator/group-coordinator-api/src/main/java/org/apache/kafka/coordinator/group/api/assignor/ | grep -v package-info))
	files+=($(git -C "$kafka" ls-tree -r --name-only "$b" group-coordinator/src/main/java/org/apache/kafka/coordinator/group/assignor/ | grep -E "Simple|AssignorHelpers"))
	for f in "${files[@]}"; do git -C "$kafka" show "$b:$f" > "$src/$(basename "$f")"; done
	javac -nowarn -d "$work/$b/classes" "$src"/*.java "$here"/org/slf4j/*.java "$here/Oracle.java" 2>&1 | grep -v '^Note:' || true
done
(cd "$root" && go build -o "$work/kviz" .)
cd "$work" && KVIZ="$work/kviz" ORACLE_CLASSES="$work" python3 "$here/compare.py" "$seed" "$groups" "$versions"
