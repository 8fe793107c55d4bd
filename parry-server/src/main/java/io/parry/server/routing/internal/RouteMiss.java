package io.parry.server.routing.internal;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.http.Problem;
import io.parry.server.RequestContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Why no route accepted a request, and the answer that says so: 404 when no path matched, automatic
 * {@code OPTIONS} or 405 with {@code Allow} when only the method was wrong, 404 when a host, header or
 * query condition failed, 415 for the content type, 406 for {@code Accept}. When routes failed at different
 * checks, the one that got furthest decides.
 */
public final class RouteMiss {
    static final int NONE = 0;
    static final int METHOD = 1;
    static final int CONDITIONS = 2;
    static final int CONSUMES = 3;
    static final int PRODUCES = 4;

    private static final List<String> METHOD_ORDER = List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE");

    private final Set<HttpMethod> allowed = new HashSet<>();
    private final Set<MediaType> consumable = new LinkedHashSet<>();
    private final Set<MediaType> producible = new LinkedHashSet<>();
    private boolean pathMatched;
    private int stage = NONE;

    void pathMatched(RouteSet routes) {
        pathMatched = true;
        routes.addMethodsTo(allowed);
    }

    void reached(int stage) {
        this.stage = Math.max(this.stage, stage);
    }

    void unsupported(List<MediaType> consumes) {
        reached(CONSUMES);
        consumable.addAll(consumes);
    }

    void notAcceptable(List<MediaType> produces) {
        reached(PRODUCES);
        producible.addAll(produces);
    }

    /** The response for a request no route accepted. */
    public HttpResponse toResponse(RequestContext ctx, HttpRequest request) {
        if (!pathMatched) {
            return problem(ctx, request, HttpStatus.NOT_FOUND, "No route matches " + request.path() + ".");
        }
        switch (stage) {
            case METHOD:
                if (request.method().equals(HttpMethod.OPTIONS)) {
                    return HttpResponse.of(HttpStatus.NO_CONTENT).withHeader("allow", allow());
                }
                return problem(
                                ctx,
                                request,
                                HttpStatus.METHOD_NOT_ALLOWED,
                                request.method() + " is not allowed here; allowed: " + allow() + ".")
                        .withHeader("allow", allow());
            case CONSUMES:
                return problem(
                        ctx,
                        request,
                        HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                        "The content type is not supported here; supported: " + list(consumable) + ".");
            case PRODUCES:
                return problem(
                        ctx,
                        request,
                        HttpStatus.NOT_ACCEPTABLE,
                        "None of the accepted media types can be produced here; available: " + list(producible) + ".");
            default:
                return problem(
                        ctx,
                        request,
                        HttpStatus.NOT_FOUND,
                        "No route at " + request.path() + " matches the request's host, headers and query.");
        }
    }

    /** The methods of every matching path, with HEAD where GET is and OPTIONS always (RFC 9110, section 10.2.1). */
    String allow() {
        Set<String> names = new HashSet<>();
        for (HttpMethod method : allowed) {
            names.add(method.name());
        }
        if (names.contains("GET")) {
            names.add("HEAD");
        }
        names.remove("OPTIONS");
        List<String> ordered = new ArrayList<>(names);
        ordered.sort(Comparator.comparingInt(RouteMiss::rank).thenComparing(Comparator.naturalOrder()));
        ordered.add("OPTIONS");
        return String.join(", ", ordered);
    }

    private static int rank(String method) {
        int index = METHOD_ORDER.indexOf(method);
        return index < 0 ? METHOD_ORDER.size() : index;
    }

    private static String list(Set<MediaType> types) {
        return types.stream().map(MediaType::toString).collect(Collectors.joining(", "));
    }

    private static HttpResponse problem(RequestContext ctx, HttpRequest request, HttpStatus status, String detail) {
        return Problem.of(status)
                .detail(detail)
                .instance(request.path())
                .requestId(ctx.requestId())
                .toResponse();
    }
}
