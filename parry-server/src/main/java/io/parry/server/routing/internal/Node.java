package io.parry.server.routing.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A node of the route trie: one path segment deep. It is built by {@link #insert} and then frozen by
 * {@link #compile()} into arrays and a {@link RegionIndex} that lookups read without locking.
 */
final class Node {
    private final Map<String, Node> literalChildren = new LinkedHashMap<>();
    private final List<Node> paramChildren = new ArrayList<>();
    private final Pattern constraint;
    private final String paramKey;

    /** The literal children when there are two or more. */
    RegionIndex literals = RegionIndex.EMPTY;
    /** The literal child when there is exactly one, compared without hashing. */
    byte[] onlyLiteral;

    Node onlyLiteralChild;

    /** Constrained parameters first, in declaration order, then the unconstrained one. */
    Node[] params;
    /** The parameter child when there is exactly one. */
    Node onlyParam;

    RouteSet routes;
    /** The route here when it is the only one and has no conditions: found without touching {@link #routes}. */
    RouteEntry sole;

    RouteSet catchAll;
    /** The routes that take this node's path and everything below it: prefixes and mounts. */
    RouteSet prefixes;

    /** The first mount here, kept to name it when a catch-all conflicts with it. */
    private RouteEntry mount;

    private Node(Pattern constraint, String paramKey) {
        this.constraint = constraint;
        this.paramKey = paramKey;
    }

    static Node root() {
        return new Node(null, null);
    }

    /**
     * Whether the segment {@code path[from, to)} may fill this parameter node. A constraint is
     * checked against the decoded value the handler will see, so {@code a%2Fb} is {@code a/b} to it.
     */
    boolean accepts(String path, int from, int to) {
        if (to == from) {
            return false;
        }
        if (constraint == null) {
            return true;
        }
        int percent = path.indexOf('%', from);
        if (percent >= 0 && percent < to) {
            return constraint
                    .matcher(PercentDecoding.decode(path, from, to, false))
                    .matches();
        }
        return constraint.matcher(path).region(from, to).matches();
    }

    /** The literal child for the segment {@code path[from, to)}, or {@code null}. */
    Node literal(String path, int from, int to) {
        byte[] only = onlyLiteral;
        if (only != null) {
            return RegionIndex.regionEquals(only, path, from, to) ? onlyLiteralChild : null;
        }
        return literals == RegionIndex.EMPTY ? null : literals.get(path, from, to);
    }

    /** Adds the route; returns the node it ends at, or {@code null} for a catch-all. */
    Node insert(RouteEntry entry, RouteLint lint) {
        Node node = this;
        for (PathSegment segment : entry.pattern.segments()) {
            switch (segment.kind()) {
                case LITERAL:
                    node = node.literalChildren.computeIfAbsent(segment.text(), text -> new Node(null, null));
                    break;
                case PARAM:
                    node = node.paramChild(segment);
                    break;
                default:
                    if (node.mount != null) {
                        throw RouteLint.mountConflict(node.mount, entry);
                    }
                    node.catchAll = add(node.catchAll, entry, lint);
                    return null;
            }
        }
        if (!entry.prefix) {
            node.routes = add(node.routes, entry, lint);
        } else if (entry.mount && node.catchAll != null) {
            throw RouteLint.mountConflict(node.catchAll.any(), entry);
        } else {
            node.mount = entry.mount && node.mount == null ? entry : node.mount;
            node.prefixes = add(node.prefixes, entry, lint);
        }
        return node;
    }

    private static RouteSet add(RouteSet routes, RouteEntry entry, RouteLint lint) {
        RouteSet set = routes == null ? new RouteSet() : routes;
        set.add(entry, lint);
        return set;
    }

    private Node paramChild(PathSegment segment) {
        String key = segment.shapeKey();
        for (Node child : paramChildren) {
            if (child.paramKey.equals(key)) {
                return child;
            }
        }
        Node child = new Node(segment.constraint(), key);
        paramChildren.add(child);
        return child;
    }

    void compile() {
        if (literalChildren.size() == 1) {
            Map.Entry<String, Node> only = literalChildren.entrySet().iterator().next();
            onlyLiteral = only.getKey().getBytes(StandardCharsets.US_ASCII);
            onlyLiteralChild = only.getValue();
        } else {
            literals = RegionIndex.of(literalChildren);
        }
        for (RouteSet set : new RouteSet[] {routes, catchAll, prefixes}) {
            if (set != null) {
                set.compile();
            }
        }
        sole = routes == null ? null : routes.sole();
        List<Node> ordered = new ArrayList<>(paramChildren.size());
        for (Node child : paramChildren) {
            if (child.constraint != null) {
                ordered.add(child);
            }
        }
        for (Node child : paramChildren) {
            if (child.constraint == null) {
                ordered.add(child);
            }
        }
        params = ordered.toArray(new Node[0]);
        onlyParam = params.length == 1 ? params[0] : null;
        literalChildren.values().forEach(Node::compile);
        paramChildren.forEach(Node::compile);
    }
}
