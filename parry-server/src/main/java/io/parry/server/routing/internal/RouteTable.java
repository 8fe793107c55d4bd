package io.parry.server.routing.internal;

import io.parry.http.HttpRequest;
import io.parry.http.MediaType;
import io.parry.server.RequestContext;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The compiled routes of one router: a segment trie walked by index over the request path, with no
 * regular expression except a constraint asked for on a segment, and no allocation for a route
 * without conditions.
 *
 * <p>Precedence at each segment: a literal, then constrained parameters in declaration order, then an
 * unconstrained parameter, then a catch-all, then the prefixes and mounts ending before the segment.
 * When the more specific branch has no route that accepts the request (its method, host, headers,
 * query, content type and {@code Accept}), the walk goes back and tries the next one; the first route
 * found wins.
 */
public final class RouteTable {
    private final Node root;
    /** The nodes of routes whose segments are all literals, by full path: one probe finds most requests. */
    private final RegionIndex staticPaths;

    private RouteTable(Node root, RegionIndex staticPaths) {
        this.root = root;
        this.staticPaths = staticPaths;
    }

    /**
     * Compiles the routes, in declaration order.
     *
     * @throws IllegalStateException naming both routes when one duplicates or shadows another
     */
    public static RouteTable of(List<RouteEntry> entries) {
        return of(entries, RouteLint.STRICT);
    }

    /**
     * Compiles the routes, in declaration order, reporting duplicate and shadowed routes to the lint.
     *
     * @throws IllegalStateException naming both routes when a mount conflicts with a catch-all, or
     *     when one route duplicates or shadows another and the lint is strict
     */
    public static RouteTable of(List<RouteEntry> entries, RouteLint lint) {
        Node root = Node.root();
        Map<String, Node> staticPaths = new HashMap<>();
        Map<List<String>, String[]> names = new HashMap<>();
        Map<List<Integer>, int[]> positions = new HashMap<>();
        for (RouteEntry entry : entries) {
            // Routes with the same parameters share the arrays, so a large table touches fewer cache lines.
            entry.paramNames = names.computeIfAbsent(List.of(entry.paramNames), key -> entry.paramNames);
            entry.paramSegments = positions.computeIfAbsent(
                    Arrays.stream(entry.paramSegments).boxed().collect(Collectors.toList()),
                    key -> entry.paramSegments);
            Node node = root.insert(entry, lint);
            if (!entry.prefix && entry.paramNames.length == 0) {
                staticPaths.put(staticPath(entry.pattern), node);
            }
        }
        root.compile();
        return new RouteTable(root, RegionIndex.of(staticPaths));
    }

    /** The path a request has when it matches a pattern of literals only. */
    private static String staticPath(PathPattern pattern) {
        StringBuilder path = new StringBuilder();
        for (PathSegment segment : pattern.segments()) {
            path.append('/').append(segment.text());
        }
        return path.toString();
    }

    /**
     * The route for the request whose path is {@code path[start, end)}, which starts with {@code /};
     * {@code null} when none accepts it.
     */
    public RouteEntry find(String path, int start, HttpRequest request) {
        return find(path, start, null, request);
    }

    /**
     * The route for the request, as {@link #find(String, int, HttpRequest)}, with its context for
     * conditions on the client's address ({@code null}: such conditions fail).
     */
    public RouteEntry find(String path, int start, RequestContext ctx, HttpRequest request) {
        Node exact = staticPaths.get(path, start, path.length());
        if (exact != null) {
            // The walk would reach this node first too (a literal wins at every segment).
            RouteEntry sole = exact.sole;
            if (sole != null && sole.method == request.method()) {
                return sole;
            }
            RouteEntry found = select(exact.routes, ctx, request, null);
            if (found != null) {
                return found;
            }
        }
        return walk(root, path, start, path.length(), ctx, request, null);
    }

    /** Why no route accepts the request, after {@link #find} found none. */
    public RouteMiss diagnose(String path, int start, RequestContext ctx, HttpRequest request) {
        RouteMiss miss = new RouteMiss();
        walk(root, path, start, path.length(), ctx, request, miss);
        return miss;
    }

    private static RouteEntry walk(
            Node node, String path, int pos, int end, RequestContext ctx, HttpRequest request, RouteMiss miss) {
        if (pos == end) {
            RouteEntry sole = node.sole;
            if (sole != null && sole.method == request.method() && miss == null) {
                return sole;
            }
            RouteEntry found = node.routes == null ? null : select(node.routes, ctx, request, miss);
            return found != null || node.prefixes == null ? found : select(node.prefixes, ctx, request, miss);
        }
        int from = pos + 1;
        int to = path.indexOf('/', from);
        if (to < 0) {
            to = end;
        }
        Node literal = node.literal(path, from, to);
        if (literal != null) {
            RouteEntry found = walk(literal, path, to, end, ctx, request, miss);
            if (found != null) {
                return found;
            }
        }
        Node onlyParam = node.onlyParam;
        if (onlyParam != null) {
            if (onlyParam.accepts(path, from, to)) {
                RouteEntry found = walk(onlyParam, path, to, end, ctx, request, miss);
                if (found != null) {
                    return found;
                }
            }
        } else {
            for (Node param : node.params) {
                if (param.accepts(path, from, to)) {
                    RouteEntry found = walk(param, path, to, end, ctx, request, miss);
                    if (found != null) {
                        return found;
                    }
                }
            }
        }
        if (node.catchAll != null) {
            RouteEntry found = select(node.catchAll, ctx, request, miss);
            if (found != null) {
                return found;
            }
        }
        return node.prefixes == null ? null : select(node.prefixes, ctx, request, miss);
    }

    /** The route among those at one place that accepts the request; failures are noted in {@code miss}. */
    private static RouteEntry select(RouteSet routes, RequestContext ctx, HttpRequest request, RouteMiss miss) {
        RouteEntry[] candidates = routes.forMethod(request.method());
        if (miss != null) {
            miss.pathMatched(routes);
        }
        if (candidates.length == 0) {
            if (miss != null) {
                miss.reached(RouteMiss.METHOD);
            }
            return null;
        }
        if (candidates.length == 1 && candidates[0].unconditional) {
            return candidates[0];
        }
        return choose(candidates, ctx, request, miss);
    }

    /**
     * The route whose conditions the request meets; among several, the one producing the type the
     * client prefers most ({@code Accept} q-values), then the first declared.
     */
    private static RouteEntry choose(RouteEntry[] candidates, RequestContext ctx, HttpRequest request, RouteMiss miss) {
        RouteEntry best = null;
        int bestQuality = 0;
        MediaType contentType = null;
        boolean contentTypeRead = false;
        MediaRanges accept = null;
        for (RouteEntry candidate : candidates) {
            if (!conditionsHold(candidate, ctx, request)) {
                if (miss != null) {
                    miss.reached(RouteMiss.CONDITIONS);
                }
                continue;
            }
            if (!candidate.consumes.isEmpty()) {
                if (!contentTypeRead) {
                    contentType = contentType(request);
                    contentTypeRead = true;
                }
                if (contentType == null || !MediaRanges.contentTypeMatches(contentType, candidate.consumes)) {
                    if (miss != null) {
                        miss.unsupported(candidate.consumes);
                    }
                    continue;
                }
            }
            int quality = MediaRanges.MAX_QUALITY;
            if (!candidate.produces.isEmpty()) {
                if (accept == null) {
                    accept = MediaRanges.parseAccept(accept(request));
                }
                quality = accept.quality(candidate.produces);
                if (quality == 0) {
                    if (miss != null) {
                        miss.notAcceptable(candidate.produces);
                    }
                    continue;
                }
            }
            if (quality == MediaRanges.MAX_QUALITY) {
                return candidate; // No later route can be preferred to it.
            }
            if (quality > bestQuality) {
                best = candidate;
                bestQuality = quality;
            }
        }
        return best;
    }

    private static boolean conditionsHold(RouteEntry candidate, RequestContext ctx, HttpRequest request) {
        for (Condition condition : candidate.conditionArray) {
            if (!condition.test(ctx, request)) {
                return false;
            }
        }
        return true;
    }

    /** The {@code Accept} field lines joined into one list (RFC 9110, section 5.3), or {@code null}. */
    private static String accept(HttpRequest request) {
        List<String> lines = request.headers().getAll("accept");
        if (lines.isEmpty()) {
            return null;
        }
        return lines.size() == 1 ? lines.get(0) : String.join(",", lines);
    }

    private static MediaType contentType(HttpRequest request) {
        String value = request.headers().get("content-type");
        if (value == null) {
            return null;
        }
        try {
            return MediaType.parse(value);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
