package io.parry.gateway.internal.routing;

import io.parry.http.HttpRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The template routes as a segment trie. At each segment a literal beats a parameter, which beats a
 * catch-all; when the more specific branch has no route whose conditions hold, the next is tried.
 * Lookup walks the path in place: no regex, no substring, no allocation.
 */
final class TemplateTree {
    private final Node root;

    private TemplateTree(Node root) {
        this.root = root;
    }

    /** The route for this request, or {@code null}. */
    GatewayRoute select(String path, HttpRequest request) {
        return root == null || !path.startsWith("/") ? null : root.select(path, 0, request);
    }

    /** Passes every group whose template matches the path, conditions aside. */
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
        private final SegmentMap<Node> literals;
        private final Node param;
        private final RouteGroup routes;
        private final RouteGroup catchAll;

        private Node(SegmentMap<Node> literals, Node param, RouteGroup routes, RouteGroup catchAll) {
            this.literals = literals;
            this.param = param;
            this.routes = routes;
            this.catchAll = catchAll;
        }

        GatewayRoute select(String path, int pos, HttpRequest request) {
            int length = path.length();
            if (pos == length) {
                return routes == null ? null : routes.select(request);
            }
            int from = pos + 1;
            int to = segmentEnd(path, from);
            if (literals != null) {
                Node child = literals.get(path, from, to);
                GatewayRoute route = child == null ? null : child.select(path, to, request);
                if (route != null) {
                    return route;
                }
            }
            if (param != null && to > from) {
                GatewayRoute route = param.select(path, to, request);
                if (route != null) {
                    return route;
                }
            }
            return catchAll == null ? null : catchAll.select(request);
        }

        void collect(String path, int pos, Consumer<RouteGroup> groups) {
            if (pos == path.length()) {
                if (routes != null) {
                    groups.accept(routes);
                }
                return;
            }
            int from = pos + 1;
            int to = segmentEnd(path, from);
            Node child = literals == null ? null : literals.get(path, from, to);
            if (child != null) {
                child.collect(path, to, groups);
            }
            if (param != null && to > from) {
                param.collect(path, to, groups);
            }
            if (catchAll != null) {
                groups.accept(catchAll);
            }
        }

        private static int segmentEnd(String path, int from) {
            int slash = path.indexOf('/', from);
            return slash < 0 ? path.length() : slash;
        }
    }

    /** Collects template routes; not thread-safe. */
    static final class Builder {
        private final BuildNode root = new BuildNode();
        private boolean empty = true;

        private Builder() {}

        /** Adds a template route after those added before. */
        Builder add(GatewayRoute route) {
            PathPattern pattern = route.pattern();
            String[] segments = pattern.segments();
            int last = pattern.endsWithCatchAll() ? segments.length - 1 : segments.length;
            BuildNode node = root;
            for (int i = 0; i < last; i++) {
                node = segments[i] == null ? node.param() : node.literal(segments[i]);
            }
            (pattern.endsWithCatchAll() ? node.catchAll : node.routes).add(route);
            empty = false;
            return this;
        }

        TemplateTree build() {
            return new TemplateTree(empty ? null : root.compile());
        }
    }

    private static final class BuildNode {
        private final Map<String, BuildNode> literals = new LinkedHashMap<>();
        private final List<GatewayRoute> routes = new ArrayList<>();
        private final List<GatewayRoute> catchAll = new ArrayList<>();
        private BuildNode param;

        BuildNode literal(String segment) {
            return literals.computeIfAbsent(segment, s -> new BuildNode());
        }

        BuildNode param() {
            if (param == null) {
                param = new BuildNode();
            }
            return param;
        }

        Node compile() {
            Map<String, Node> children = new LinkedHashMap<>();
            literals.forEach((segment, child) -> children.put(segment, child.compile()));
            return new Node(
                    SegmentMap.of(children),
                    param == null ? null : param.compile(),
                    routes.isEmpty() ? null : new RouteGroup(routes),
                    catchAll.isEmpty() ? null : new RouteGroup(catchAll));
        }
    }
}
