package io.parry.gateway.internal.admin;

import static java.util.Objects.requireNonNull;

import io.parry.gateway.ReloadResult;
import io.parry.gateway.internal.reload.ReloadTrigger;
import io.parry.gateway.internal.reload.Reloader;
import io.parry.gateway.internal.upstream.UpstreamRegistry;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.MediaType;
import io.parry.json.JsonCodec;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.server.health.Health;
import io.parry.server.routing.Router;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The admin listener's endpoints, as JSON:
 *
 * <ul>
 *   <li>{@code GET /admin/health}: the liveness checks, 200 when all are up, else 503;
 *   <li>{@code GET /admin/ready}: the readiness checks, 200 when all are up, else 503 (from the moment
 *       draining begins, and while a check of the embedder's is down);
 *   <li>{@code GET /admin/metrics}: the Prometheus scrape, when Prometheus is on;
 *   <li>{@code GET /admin/routes}: the live route table with the configuration's version;
 *   <li>{@code GET /admin/upstreams}: each upstream group's endpoints, health, breakers, pools and
 *       requests in flight;
 *   <li>{@code POST /admin/reload}: reloads the configuration; 200 with the version now serving, or
 *       422 problem+json with the errors when the new configuration is rejected.
 * </ul>
 *
 * The routes and upstreams views carry {@code lastReloadError} while the last reload was rejected.
 * Handlers run on the admin listener's event loop and only read state, except the reload, which runs
 * on the reload thread.
 */
public final class AdminApi {
    private final Reloader reloader;
    private final UpstreamRegistry upstreams;

    private AdminApi(Reloader reloader, UpstreamRegistry upstreams) {
        this.reloader = requireNonNull(reloader, "reloader");
        this.upstreams = requireNonNull(upstreams, "upstreams");
    }

    /**
     * The admin handler over the gateway's state.
     *
     * @param health the liveness and readiness checks
     * @param scrape the Prometheus scrape handler, or empty when Prometheus is off
     */
    public static Handler of(Reloader reloader, UpstreamRegistry upstreams, Health health, Optional<Handler> scrape) {
        AdminApi api = new AdminApi(reloader, upstreams);
        Router.Builder router = Router.builder()
                .get("/admin/health", health.livenessHandler())
                .get("/admin/ready", health.readinessHandler())
                .get("/admin/routes", (ctx, request) -> api.routes())
                .get("/admin/upstreams", (ctx, request) -> api.upstreams())
                .post("/admin/reload", api::reload);
        scrape.ifPresent(handler -> router.get("/admin/metrics", handler));
        return router.build();
    }

    private CompletionStage<HttpResponse> routes() {
        return json(HttpStatus.OK, RoutesView.of(reloader.active(), reloader.lastFailure()));
    }

    private CompletionStage<HttpResponse> upstreams() {
        return json(HttpStatus.OK, UpstreamsView.of(reloader.active(), upstreams.retiring(), reloader.lastFailure()));
    }

    private CompletionStage<HttpResponse> reload(RequestContext ctx, HttpRequest request) {
        return reloader.reload(ReloadTrigger.ADMIN).thenApply(result -> reloadResponse(ctx, request, result));
    }

    private static HttpResponse reloadResponse(RequestContext ctx, HttpRequest request, ReloadResult result) {
        Map<String, Object> view = new LinkedHashMap<>();
        if (result.applied()) {
            view.put("applied", true);
            view.put("version", result.version());
            return response(HttpStatus.OK, MediaType.JSON, view);
        }
        view.put("type", "about:blank");
        view.put("title", HttpStatus.UNPROCESSABLE_CONTENT.reasonPhrase());
        view.put("status", HttpStatus.UNPROCESSABLE_CONTENT.code());
        view.put("detail", "The new configuration was rejected; version " + result.version() + " keeps serving.");
        view.put("instance", request.path());
        view.put("requestId", ctx.requestId());
        view.put("applied", false);
        view.put("version", result.version());
        view.put("errors", result.errors());
        return response(HttpStatus.UNPROCESSABLE_CONTENT, MediaType.PROBLEM_JSON, view);
    }

    private static CompletionStage<HttpResponse> json(HttpStatus status, Map<String, ?> view) {
        return response(status, MediaType.JSON, view).toStage();
    }

    private static HttpResponse response(HttpStatus status, MediaType type, Map<String, ?> view) {
        return HttpResponse.of(status, type, Codec.JSON.write(view));
    }

    /** Made on first use: the mapper costs start-up time the gateway does not need to pay. */
    private static final class Codec {
        static final JsonCodec JSON = JsonCodec.ofDefault();
    }
}
