import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.*;
import org.apache.kafka.coordinator.group.assignor.SimpleAssignor;
import java.io.*;
import java.util.*;
import java.util.stream.*;

// Runs Kafka's own SimpleAssignor on groups read from stdin, handing it the
// group the way the coordinator does (TargetAssignmentBuilder: a HashMap of
// member specs put in input order; ShareGroupMember: new HashSet<>(names);
// TopicIds: a view resolving names; Assignment.fromRecord: Collectors.toMap
// of new HashSet<>(partitions)).
public class Oracle {
    static class Topic { String name; Uuid id; int n; List<Integer> assignable; }
    static class Member implements MemberSubscription, MemberAssignment {
        String id; Set<String> names; Map<String, Uuid> ids; Map<Uuid, String> byId; Map<Uuid, Set<Integer>> partitions;
        public Optional<String> rackId() { return Optional.empty(); }
        public Optional<String> instanceId() { return Optional.empty(); }
        public Set<Uuid> subscribedTopicIds() {
            return new AbstractSet<Uuid>() {
                public int size() { return names.size(); }
                public boolean isEmpty() { return names.isEmpty(); }
                public boolean contains(Object o) { String n = byId.get(o); return n != null && names.contains(n); }
                public Iterator<Uuid> iterator() {
                    List<Uuid> out = new ArrayList<>();
                    for (String n : names) { Uuid u = ids.get(n); if (u != null) out.add(u); }
                    return out.iterator();
                }
            };
        }
        public Map<Uuid, Set<Integer>> partitions() { return partitions; }
    }
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false);
        String line;
        List<Topic> topics = null; List<String[]> members = null; boolean allowedMap = false;
        while ((line = in.readLine()) != null) {
            String[] f = line.split(" ", -1);
            switch (f[0]) {
                case "group": topics = new ArrayList<>(); members = new ArrayList<>(); allowedMap = f[1].equals("yes"); break;
                case "topic": {
                    Topic t = new Topic(); t.name = f[1]; t.id = Uuid.fromString(f[2]); t.n = Integer.parseInt(f[3]);
                    if (!f[4].equals("-")) { t.assignable = new ArrayList<>(); if (!f[4].isEmpty()) for (String p : f[4].split(",")) t.assignable.add(Integer.parseInt(p)); }
                    topics.add(t); break;
                }
                case "member": members.add(f); break;
                case "end": run(topics, members, allowedMap, out); out.println("end"); out.flush(); break;
            }
        }
    }
    static void run(List<Topic> topics, List<String[]> rows, boolean allowedMap, PrintStream out) {
        Map<String, Uuid> ids = new HashMap<>(); Map<Uuid, String> byId = new HashMap<>(); Map<Uuid, Integer> counts = new HashMap<>();
        Map<Uuid, Set<Integer>> allowed = new HashMap<>();
        for (Topic t : topics) {
            if (t.n >= 0) { ids.put(t.name, t.id); byId.put(t.id, t.name); counts.put(t.id, t.n); }
            if (t.assignable != null) allowed.put(t.id, new HashSet<>(t.assignable));
        }
        Map<String, Uuid> anyId = new HashMap<>(); for (Topic t : topics) anyId.put(t.name, t.id);
        Map<String, Member> specs = new HashMap<>();
        Map<String, Integer> nameCount = new HashMap<>();
        List<String> order = new ArrayList<>();
        for (String[] r : rows) {
            Member m = new Member(); m.id = r[1]; m.ids = ids; m.byId = byId;
            List<String> subs = r[2].equals("-") ? List.of() : Arrays.asList(r[2].split(","));
            m.names = new HashSet<>(subs);
            for (String n : m.names) nameCount.merge(n, 1, Integer::sum);
            List<Object[]> recs = new ArrayList<>();
            if (!r[3].equals("-")) for (String tp : r[3].split(";")) {
                String[] kv = tp.split(":"); List<Integer> ps = new ArrayList<>();
                for (String p : kv[1].split(",")) ps.add(Integer.parseInt(p));
                recs.add(new Object[]{anyId.get(kv[0]), ps});
            }
            m.partitions = recs.stream().collect(Collectors.toMap(o -> (Uuid) o[0], o -> new HashSet<>((List<Integer>) o[1])));
            specs.put(m.id, m); order.add(m.id);
        }
        SubscriptionType type = SubscriptionType.HOMOGENEOUS;
        for (int c : nameCount.values()) if (c != rows.size()) type = SubscriptionType.HETEROGENEOUS;
        final SubscriptionType st = type; final Map<String, Member> ms = Collections.unmodifiableMap(specs);
        final Optional<Map<Uuid, Set<Integer>>> am = allowedMap ? Optional.of(allowed) : Optional.empty();
        GroupSpec spec = new GroupSpec() {
            public Collection<String> memberIds() { return ms.keySet(); }
            public SubscriptionType subscriptionType() { return st; }
            public boolean isPartitionAssigned(Uuid t, int p) { return false; }
            public boolean isPartitionAssignable(Uuid t, int p) { return am.map(a -> a.containsKey(t) && a.get(t).contains(p)).orElse(true); }
            public MemberSubscription memberSubscription(String id) { return ms.get(id); }
            public MemberAssignment memberAssignment(String id) { return ms.get(id); }
        };
        SubscribedTopicDescriber desc = new SubscribedTopicDescriber() {
            public int numPartitions(Uuid t) { return counts.getOrDefault(t, -1); }
            public Set<String> racksForPartition(Uuid t, int p) { return Set.of(); }
        };
        GroupAssignment ga;
        try { ga = new SimpleAssignor().assign(spec, desc); }
        catch (RuntimeException e) { out.println("error " + e.getClass().getSimpleName() + ": " + e.getMessage()); return; }
        Map<Uuid, String> names = new HashMap<>(); for (Topic t : topics) names.put(t.id, t.name);
        for (String id : order) {
            MemberAssignment a = ga.members().get(id);
            TreeMap<String, TreeSet<Integer>> byName = new TreeMap<>();
            if (a != null) a.partitions().forEach((t, ps) -> { if (!ps.isEmpty()) byName.put(names.get(t), new TreeSet<>(ps)); });
            StringBuilder b = new StringBuilder("member " + id + " ");
            byName.forEach((t, ps) -> b.append(t).append(":").append(ps.stream().map(String::valueOf).collect(Collectors.joining(","))).append(";"));
            out.println(b);
        }
    }
}
