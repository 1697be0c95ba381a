# Random share groups through Kafka's SimpleAssignor (Oracle.java) and kviz assign; see run.sh.
import json, random, subprocess, sys, hashlib, base64, os
KVIZ = os.environ.get("KVIZ", "/tmp/kviz-share")
seed = int(sys.argv[1]); n = int(sys.argv[2]); versions = sys.argv[3].split(",")
rnd = random.Random(seed)

def name_id(name):
    b = bytearray(hashlib.md5(name.encode()).digest())
    b[6] = b[6] & 0x0f | 0x30; b[8] = b[8] & 0x3f | 0x80
    return base64.urlsafe_b64encode(bytes(b)).decode().rstrip("=")

def rand_id():
    return base64.urlsafe_b64encode(bytes(rnd.getrandbits(8) for _ in range(16))).decode().rstrip("=")

def member_ids(k):
    style = rnd.choice(["letters", "consumer", "uuid"] + ([] if os.environ.get("NOCOLLIDE") else ["collide"]))
    out = []
    while len(out) < k:
        if style == "letters": s = rnd.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + str(rnd.randint(0, 99))
        elif style == "consumer": s = "consumer-%d" % rnd.randint(0, 500)
        elif style == "collide": s = "".join(rnd.choice(["Aa", "BB"]) for _ in range(rnd.randint(3, 8)))
        else: s = rand_id()
        if s not in out: out.append(s)
    return out

def group():
    nt = rnd.randint(1, 4)
    topics = {"t%d" % i: rnd.randint(0, 10) for i in range(nt)}
    if rnd.random() < 0.3: topics["big"] = rnd.randint(20, 70)
    if os.environ.get("LARGE") and rnd.random() < 0.5: topics["huge"] = rnd.randint(100, 600)
    names = list(topics)
    ids = {t: rand_id() for t in names if rnd.random() < 0.7}
    m = rnd.choice([1, 2, 3, 4, 5, 7, 9, 12, 20, 40] + ([100, 200] if os.environ.get("LARGE") else []))
    mids = member_ids(m)
    homog = rnd.random() < 0.5
    common = rnd.sample(names, rnd.randint(1, len(names)))
    members = []
    gone = "gone" if rnd.random() < 0.15 else None
    for mid in mids:
        subs = list(common) if homog else rnd.sample(names + ["missing"], rnd.randint(0, len(names)))
        rnd.shuffle(subs)
        owned = {}
        if rnd.random() < 0.6:
            for t in names:
                if topics[t] and rnd.random() < 0.6:
                    ps = sorted(rnd.sample(range(topics[t]), rnd.randint(1, topics[t])))
                    owned[t] = ps[: rnd.randint(1, len(ps))] if rnd.random() < 0.7 else ps
            if gone and rnd.random() < 0.5: owned[gone] = [0, 1]
        mem = {"id": mid}
        if rnd.random() < 0.9 or not homog: mem["topics"] = subs
        else: mem["topics"] = None
        if owned: mem["owned"] = owned
        members.append(mem)
    if gone and any(gone in m.get("owned", {}) for m in members) and rnd.random() < 0.5: ids[gone] = rand_id()
    g = {"topics": topics, "members": members}
    if ids: g["topic_ids"] = ids
    if rnd.random() < 0.35:
        g["assignable"] = {t: sorted(rnd.sample(range(topics[t]), rnd.randint(0, topics[t]))) for t in names if rnd.random() < 0.8 and topics[t] > 0}
    return g

def java_input(g):
    lines = ["group " + ("yes" if "assignable" in g else "no")]
    ids = g.get("topic_ids", {})
    allnames = list(g["topics"])
    for m in g["members"]:
        for t in m.get("owned", {}):
            if t not in allnames: allnames.append(t)
    for t in allnames:
        a = g.get("assignable", {})
        al = ",".join(map(str, a[t])) if t in a else "-"
        lines.append("topic %s %s %d %s" % (t, ids.get(t, name_id(t)), g["topics"].get(t, -1), al))
    for m in g["members"]:
        subs = m["topics"] if m["topics"] is not None else sorted(g["topics"])
        owned = ";".join("%s:%s" % (t, ",".join(map(str, ps))) for t, ps in sorted(m.get("owned", {}).items()))
        lines.append("member %s %s %s" % (m["id"], ",".join(subs) if subs else "-", owned or "-"))
    lines.append("end")
    return "\n".join(lines) + "\n"

groups = [group() for _ in range(n)]
fails = 0
errors = {}
for v in versions:
    cls = {"4.0": "4.0", "4.1": "4.1", "4.2": "4.3", "4.3": "4.3"}[v]
    jout = subprocess.run(["java", "-cp", os.path.join(os.environ.get("ORACLE_CLASSES", "/tmp/oracle"), cls, "classes"), "Oracle"], input="".join(java_input(g) for g in groups), capture_output=True, text=True).stdout
    blocks = jout.split("end\n")
    for i, g in enumerate(groups):
        want = blocks[i].strip()
        gi = dict(g); gi["members"] = [{k: v2 for k, v2 in m.items() if v2 is not None} for m in g["members"]]
        r = subprocess.run([KVIZ, "assign", "--strategy", "simple", "--kafka-version", v, "--format", "json"], input=json.dumps(gi), capture_output=True, text=True)
        if want.startswith("error"): errors[v] = errors.get(v, 0) + 1
        if r.returncode != 0:
            got = "error " + r.stderr.strip().splitlines()[-1]
            ok = want.startswith("error") and want.split(":")[0].split()[1] in got
        else:
            a = json.loads(r.stdout)
            got = "\n".join("member %s %s" % (m["id"], "".join("%s:%s;" % (t, ",".join(map(str, ps))) for t, ps in sorted(a[m["id"]].items()))) for m in g["members"])
            ok = [l.rstrip() for l in got.splitlines()] == [l.rstrip() for l in want.splitlines()]
        if not ok:
            fails += 1
            if fails <= 3:
                print("MISMATCH v%s group %d\ninput: %s\nkafka:\n%s\nkviz:\n%s\n" % (v, i, json.dumps(gi), want, got))
    print("version", v, "groups", n, "kafka errors", errors.get(v, 0), "fails so far", fails)
sys.exit(1 if fails else 0)
