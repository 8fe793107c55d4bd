package io.parry.gateway.internal.routing;

import io.parry.http.HttpRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The prefix routes as a segment trie: the longest prefix whose routes take the request wins, a
 * prefix matching whole segments only. Lookup walks the path in place and allocates nothing.
 */
final class PrefixTree {
    private final Node root;

    private PrefixTree(Node root) {
        this.root = root;
    }

    /** The route of the longest matching prefix whose conditions hold, or {@code null}. */
    GatewayRoute select(String path, HttpRequest request) {
        return root == null || !path.startsWith("/") ? null : root.select(path, 0, request);
    }

    /** Passes every group whose prefix matches the path, conditions aside. */
    void collect(String path, Consumer<RouteGroup> groups) {
        if (root != null && path.startsWith("/")) {
            root.collect(path, 0, groups);
        }
    }

    static Builder builder() {
        return new Builder();
    }

    /** A compiled node; {@code pos} is the index of the slash before the next segment, or the path's end. */
    private static final class Node {
        private final SegmentMap<Node> children;
        private final RouteGroup routes;

        private Node(SegmentMap<Node> children, RouteGroup routes) {
            this.children = children;
            this.routes = routes;
        }

        GatewayRoute select(String path, int pos, HttpRequest request) {
            Node child = child(path, pos);
            if (child != null) {
                GatewayRoute route = child.select(path, segmentEnd(path, pos + 1), request);
                if (route != null) {
                    return route;
                }
            }
            return routes == null ? null : routes.select(request);
        }

        void collect(String path, int pos, Consumer<RouteGroup> groups) {
            if (routes != null) {
                groups.accept(routes);
            }
            Node child = child(path, pos);
            if (child != null) {
                child.collect(path, segmentEnd(path, pos + 1), groups);
            }
        }

        private Node child(String path, int pos) {
            if (children == null || pos == path.length()) {
                return null;
            }
            return children.get(path, pos + 1, segmentEnd(path, pos + 1));
        }

        private static int segmentEnd(String path, int from) {
            int slash = path.indexOf('/', from);
            return slash < 0 ? path.length() : slash;
        }
    }

    /** Collects prefix routes; not thread-safe. */
    static final class Builder {
        private final BuildNode root = new BuildNode();
        private boolean empty = true;

        private Builder() {}

        /** Adds a prefix route after those added before. */
        Builder add(GatewayRoute route) {
            BuildNode node = root;
            for (String segment : route.pattern().segments()) {
                node = node.children.computeIfAbsent(segment, s -> new BuildNode());
            }
            node.routes.add(route);
            empty = false;
            return this;
        }

        PrefixTree build() {
            return new PrefixTree(empty ? null : root.compile());
        }
    }

    private static final class BuildNode {
        private final Map<String, BuildNode> children = new LinkedHashMap<>();
        private final List<GatewayRoute> routes = new ArrayList<>();

        Node compile() {
            Map<String, Node> compiled = new LinkedHashMap<>();
            children.forEach((segment, child) -> compiled.put(segment, child.compile()));
            return new Node(SegmentMap.of(compiled), routes.isEmpty() ? null : new RouteGroup(routes));
        }
    }
}
