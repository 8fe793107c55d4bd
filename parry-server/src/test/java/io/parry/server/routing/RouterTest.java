package io.parry.server.routing;

import static io.parry.server.routing.Calls.body;
import static io.parry.server.routing.Calls.call;
import static io.parry.server.routing.Calls.get;
import static io.parry.server.routing.Calls.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.MediaType;
import io.parry.server.Filter;
import io.parry.server.RequestContext;
import io.parry.server.StubContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RouterTest {

    @Test
    void givesAHandlerOneEventLoopForItsRequestThatRunsTasksWithTheRoutedContextCurrent() throws Exception {
        ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
        try {
            Router router = Router.builder()
                    .get("/items/{id}", (ctx, request) -> {
                        ScheduledExecutorService scheduler = ctx.eventLoop();
                        boolean same = scheduler == ctx.eventLoop();
                        return CompletableFuture.supplyAsync(
                                        () -> same + " "
                                                + RequestContext.current()
                                                        .map(current -> current.pathParams()
                                                                .get("id"))
                                                        .orElse("none"),
                                        scheduler)
                                .thenApply(HttpResponse::ofText);
                    })
                    .build();

            HttpResponse response = router.handle(
                            new StubContext(loop),
                            HttpRequest.builder(HttpMethod.GET, "/items/7")
                                    .header("host", "a")
                                    .build())
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);

            assertThat(body(response)).isEqualTo("true 7");
        } finally {
            loop.shutdownNow();
        }
    }

    @Test
    void prefersLiteralOverParameterOverCatchAll() {
        Router router = Router.builder()
                .get("/files/{*rest}", named("catch-all"))
                .get("/files/{name}", named("param"))
                .get("/files/readme", named("literal"))
                .build();

        assertThat(get(router, "/files/readme")).isEqualTo("literal {}");
        assertThat(get(router, "/files/other")).isEqualTo("param {name=other}");
        assertThat(get(router, "/files/a/b")).isEqualTo("catch-all {rest=a/b}");
    }

    @Test
    void triesConstrainedParametersBeforeTheUnconstrainedOneWhateverTheOrder() {
        Router router = Router.builder()
                .get("/items/{slug}", named("slug"))
                .get("/items/{id:\\d+}", named("id"))
                .build();

        assertThat(get(router, "/items/42")).isEqualTo("id {id=42}");
        assertThat(get(router, "/items/forty-two")).isEqualTo("slug {slug=forty-two}");
    }

    @Test
    void goesBackToALessSpecificBranchWhenTheLiteralOneHasNoRoute() {
        Router router = Router.builder()
                .get("/a/b/c", named("literal"))
                .get("/a/{x}/d", named("param"))
                .post("/a/{x}/c", named("post"))
                .build();

        assertThat(get(router, "/a/b/d")).isEqualTo("param {x=b}");
        assertThat(body(call(router, "POST", "/a/b/c"))).isEqualTo("post {x=b}");
    }

    @Test
    void decodesParametersPerSegmentButKeepsEncodedSlashesInACatchAll() {
        Router router = Router.builder()
                .get("/users/{name}", named("user"))
                .get("/files/{*path}", named("files"))
                .build();

        assertThat(get(router, "/users/J%C3%BCrgen%2Fx")).isEqualTo("user {name=Jürgen/x}");
        assertThat(get(router, "/files/a%20b/..%2Fetc")).isEqualTo("files {path=a b/..%2Fetc}");
    }

    @Test
    void matchesACatchAllAfterItsSlashOnly() {
        Router router = Router.builder().get("/files/{*path}", named("files")).build();

        assertThat(get(router, "/files/")).isEqualTo("files {path=}");
        assertThat(call(router, "GET", "/files").status().code()).isEqualTo(404);
    }

    @Test
    void treatsATrailingSlashAndTheRootAsTheirOwnPaths() {
        Router router = Router.builder()
                .get("/", named("root"))
                .get("/todos", named("todos"))
                .build();

        assertThat(get(router, "/")).isEqualTo("root {}");
        assertThat(get(router, "/todos")).isEqualTo("todos {}");
        assertThat(call(router, "GET", "/todos/").status().code()).isEqualTo(404);
    }

    @Test
    void answers404AsAProblemNamingThePath() {
        Router router = Router.builder().get("/todos", named("todos")).build();

        HttpResponse response = call(router, "GET", "/nothing");

        assertThat(response.status().code()).isEqualTo(404);
        assertThat(response.headers().get("content-type")).isEqualTo("application/problem+json");
        assertThat(body(response)).contains("\"status\":404", "/nothing", "\"requestId\":\"test-1\"");
    }

    @Test
    void answers405WithTheMethodsOfEveryMatchingPattern() {
        Router router = Router.builder()
                .get("/todos/{id}", named("get"))
                .delete("/todos/{id:\\d+}", named("delete"))
                .put("/todos/1", named("put"))
                .build();

        HttpResponse response = call(router, "POST", "/todos/1");

        assertThat(response.status().code()).isEqualTo(405);
        assertThat(response.headers().get("allow")).isEqualTo("GET, HEAD, PUT, DELETE, OPTIONS");
        assertThat(body(response)).contains("POST is not allowed here");
    }

    @Test
    void answersOptionsWithAllowWhenNoRouteTakesIt() {
        Router router = Router.builder()
                .get("/todos", named("list"))
                .post("/todos", named("create"))
                .build();

        HttpResponse response = call(router, "OPTIONS", "/todos");

        assertThat(response.status().code()).isEqualTo(204);
        assertThat(response.headers().get("allow")).isEqualTo("GET, HEAD, POST, OPTIONS");
    }

    @Test
    void servesHeadWithTheGetRouteUnlessAHeadRouteExists() {
        Router router = Router.builder()
                .get("/a", named("get a"))
                .get("/b", named("get b"))
                .route(HttpMethod.HEAD, "/b", named("head b"))
                .build();

        assertThat(body(call(router, "HEAD", "/a"))).isEqualTo("get a {}");
        assertThat(body(call(router, "HEAD", "/b"))).isEqualTo("head b {}");
    }

    @Test
    void negotiatesTheRouteByAcceptQualities() {
        Router router = Router.builder()
                .get("/report", named("json"), route -> route.produces(MediaType.JSON))
                .get("/report", named("csv"), route -> route.produces(MediaType.parse("text/csv")))
                .build();

        assertThat(get(router, "/report", "accept", "text/csv;q=0.9, application/json;q=0.5"))
                .isEqualTo("csv {}");
        assertThat(get(router, "/report", "accept", "text/*;q=0.2, application/*;q=0.3"))
                .isEqualTo("json {}");
        assertThat(get(router, "/report")).isEqualTo("json {}");
        HttpResponse refused = call(router, "GET", "/report", "accept", "text/html, application/json;q=0");
        assertThat(refused.status().code()).isEqualTo(406);
        assertThat(body(refused)).contains("application/json, text/csv");
    }

    @Test
    void negotiatesOverEveryAcceptFieldLineAsOneList() {
        Router router = Router.builder()
                .get("/report", named("json"), route -> route.produces(MediaType.JSON))
                .build();

        assertThat(get(router, "/report", "accept", "text/html", "accept", "application/json"))
                .isEqualTo("json {}");
    }

    @Test
    void matchesALiteralWrittenWithAnEscapedUnreservedCharacter() {
        Router router = Router.builder().get("/%7ejohn", named("home")).build();

        assertThat(get(router, "/~john")).isEqualTo("home {}");
        assertThat(get(router, "/%7Ejohn")).isEqualTo("home {}");
    }

    @Test
    void checksAConstraintAgainstTheDecodedValueTheHandlerSees() {
        Router router = Router.builder()
                .get("/files/{name:[^/]+}", named("file"))
                .get("/files/{*rest}", named("rest"))
                .get("/users/{name:\\p{L}+}", named("user"))
                .build();

        assertThat(get(router, "/files/a%2Fb")).isEqualTo("rest {rest=a%2Fb}");
        assertThat(get(router, "/files/ab")).isEqualTo("file {name=ab}");
        assertThat(get(router, "/users/J%C3%BCrgen")).isEqualTo("user {name=J\u00fcrgen}");
    }

    @Test
    void listsTheRoutesOfARouterMountedAtTheRootWithoutADoubleSlash() {
        Router inner = Router.builder()
                .get("/ping", named("ping"))
                .get("/", named("root"))
                .build();
        Router router = Router.builder().mount("/", inner).build();

        assertThat(router.routes()).extracting(Route::pattern).containsExactly("/ping", "/");
        assertThat(Router.builder().mount("/", named("any")).build().routes())
                .extracting(Route::pattern)
                .containsExactly("/**");
    }

    @Test
    void matchesContentTypeWithWildcardsAndParameters() {
        Router router = Router.builder()
                .post("/json", named("json"), route -> route.consumes(MediaType.JSON))
                .post("/text", named("text"), route -> route.consumes(MediaType.parse("text/*; charset=utf-8")))
                .build();

        assertThat(body(call(router, "POST", "/json", "content-type", "application/json; charset=utf-8")))
                .isEqualTo("json {}");
        assertThat(body(call(router, "POST", "/text", "content-type", "text/csv;charset=UTF-8")))
                .isEqualTo("text {}");
        assertThat(call(router, "POST", "/text", "content-type", "text/csv")
                        .status()
                        .code())
                .isEqualTo(415);
        assertThat(call(router, "POST", "/json").status().code()).isEqualTo(415);
        assertThat(call(router, "POST", "/json", "content-type", "nonsense")
                        .status()
                        .code())
                .isEqualTo(415);
    }

    @Test
    void selectsByHeaderAndQueryConditionsAnd404sWhenNoneHolds() {
        Router router = Router.builder()
                .get("/api", named("v2"), route -> route.header("x-api-version", "2"))
                .get("/api", named("beta"), route -> route.query("beta", v -> v.equals("yes")))
                .build();

        assertThat(get(router, "/api", "x-api-version", "2")).isEqualTo("v2 {}");
        assertThat(get(router, "/api?beta=yes")).isEqualTo("beta {}");
        assertThat(call(router, "GET", "/api?beta=no").status().code()).isEqualTo(404);
    }

    @Test
    void reportsTheCheckThatGotFurthestWhenRoutesFailDifferently() {
        Router router = Router.builder()
                .post("/x", named("a"), route -> route.header("x-a", "1"))
                .post("/x", named("b"), route -> route.consumes(MediaType.JSON).produces(MediaType.JSON))
                .build();

        HttpResponse response = call(router, "POST", "/x", "content-type", "application/json", "accept", "text/html");

        assertThat(response.status().code()).isEqualTo(406);
    }

    @Test
    void failsTheBuildOnADuplicateRouteNamingBoth() {
        Router.Builder builder = Router.builder().get("/todos/{id}", named("a")).get("/todos/{name}", named("b"));

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("duplicate route: GET /todos/{name}")
                .hasMessageContaining("GET /todos/{id}");
    }

    @Test
    void failsTheBuildOnAShadowedRouteNamingBoth() {
        Router.Builder builder = Router.builder()
                .get("/todos", named("any"))
                .get("/todos", named("json"), route -> route.produces(MediaType.JSON));

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shadowed route: GET /todos produces=application/json")
                .hasMessageContaining("because GET /todos on event-loop");
    }

    @Test
    void acceptsTheMoreSpecificRouteFirst() {
        Router router = Router.builder()
                .get("/todos", named("json"), route -> route.produces(MediaType.JSON))
                .get("/todos", named("any"))
                .build();

        assertThat(get(router, "/todos", "accept", "text/html")).isEqualTo("any {}");
        assertThat(get(router, "/todos", "accept", "application/json")).isEqualTo("json {}");
    }

    @Test
    void failsTheBuildOnACatchAllWhereAMountIs() {
        Router.Builder builder = Router.builder().mount("/v2", named("mounted")).get("/v2/{*rest}", named("catch-all"));

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("GET /v2/{*rest}")
                .hasMessageContaining("* /v2/**");
    }

    @Test
    void rejectsMalformedPatternsWhenTheRouteIsAdded() {
        Router.Builder builder = Router.builder();

        assertThatThrownBy(() -> builder.get("/a/{", named("x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("pattern: /a/{ (expected:");
        assertThatThrownBy(() -> builder.get("/a/b-{id}", named("x")))
                .hasMessageContaining("a parameter to fill a whole segment");
        assertThatThrownBy(() -> builder.get("/{*rest}/x", named("x")))
                .hasMessageContaining("only as a route's last segment");
        assertThatThrownBy(() -> builder.get("/{id}/{id}", named("x"))).hasMessageContaining("id repeats");
        assertThatThrownBy(() -> builder.get("/{id:[}", named("x"))).hasMessageContaining("a valid regular expression");
        assertThatThrownBy(() -> builder.get("todos", named("x"))).hasMessageContaining("starts with /");
        assertThatThrownBy(() -> builder.get("/a/%2e%2E", named("x"))).hasMessageContaining("no dot-segments");
        assertThatThrownBy(() -> builder.group("/admin/", g -> {})).hasMessageContaining("no trailing slash");
    }

    @Test
    void bindsGroupFiltersToTheGroupsRoutesOnly() {
        List<String> seen = new ArrayList<>();
        Filter audit = (next, ctx, request) -> {
            seen.add(request.path());
            return next.handle(ctx, request);
        };
        Router router = Router.builder()
                .get("/public", named("public"))
                .group("/admin", admin -> admin.filter(audit)
                        .get("/", named("admin"))
                        .group("/users/{id}", users -> users.get("/roles", named("roles"))))
                .build();

        assertThat(get(router, "/public")).isEqualTo("public {}");
        assertThat(get(router, "/admin")).isEqualTo("admin {}");
        assertThat(get(router, "/admin/users/7/roles")).isEqualTo("roles {id=7}");
        assertThat(call(router, "GET", "/admin/none").status().code()).isEqualTo(404);
        assertThat(seen).containsExactly("/admin", "/admin/users/7/roles");
    }

    @Test
    void mountsARouterThatMatchesTheRestOfThePath() {
        Router inner = Router.builder()
                .get("/", named("inner root"))
                .get("/items/{item}", named("item"))
                .build();
        Router outer = Router.builder()
                .mount("/tenants/{tenant}", inner)
                .get("/tenants/{tenant}/about", named("outer about"))
                .build();

        assertThat(get(outer, "/tenants/acme")).isEqualTo("inner root {tenant=acme}");
        assertThat(get(outer, "/tenants/acme/")).isEqualTo("inner root {tenant=acme}");
        assertThat(get(outer, "/tenants/acme/items/9")).isEqualTo("item {item=9, tenant=acme}");
        assertThat(get(outer, "/tenants/acme/about")).isEqualTo("outer about {tenant=acme}");
        assertThat(body(call(outer, "GET", "/tenants/acme/none"))).contains("\"status\":404");
    }

    @Test
    void listsEveryRouteWithItsConditionsAndScheduling() {
        Router inner = Router.builder().get("/ping", named("ping")).build();
        Router router = Router.builder()
                .executor("reports", Runnable::run)
                .post("/todos", named("create"), route -> route.consumes(MediaType.JSON)
                        .produces(MediaType.JSON)
                        .header("x-api-version", "2"))
                .get("/files/{*path}", named("files"), RouteSpec::blocking)
                .get("/reports", named("reports"), route -> route.executor("reports"))
                .mount("/v2", inner)
                .build();

        assertThat(router.routes())
                .extracting(Route::toString)
                .containsExactly(
                        "POST /todos consumes=application/json produces=application/json header x-api-version=2"
                                + " on event-loop",
                        "GET /files/{*path} on worker",
                        "GET /reports on executor:reports",
                        "GET /v2/ping on event-loop");
        assertThat(router.toString()).startsWith("Router(4 routes)\n  POST /todos");
    }

    @Test
    void theRouteTableListsTheFiltersAroundEachRouteOutermostFirst() {
        Filter outer = (next, ctx, request) -> next.handle(ctx, request);
        Filter group = (next, ctx, request) -> next.handle(ctx, request);
        Filter own = (next, ctx, request) -> next.handle(ctx, request);
        Filter mounted = (next, ctx, request) -> next.handle(ctx, request);
        Router inner =
                Router.builder().filter(mounted).get("/ping", named("ping")).build();
        Router router = Router.builder()
                .get("/open", named("open"))
                .group("/admin", admin -> admin.filter(group).get("/stats", named("stats"), route -> route.filter(own)))
                .mount("/v2", inner)
                .filter(outer)
                .build();

        assertThat(router.routes())
                .extracting(Route::filters)
                .containsExactly(List.of(outer), List.of(outer, group, own), List.of(outer, mounted));
    }

    @Test
    void failsTheBuildWhenARouteNamesAnUnknownExecutor() {
        Executor direct = Runnable::run;
        Router.Builder builder =
                Router.builder().executor("known", direct).get("/x", named("x"), route -> route.executor("unknown"));

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("executor: unknown (expected:")
                .hasMessageContaining("[known]");
    }

    @Test
    void refusesToBuildAGroupOnItsOwn() {
        List<Router.Builder> groups = new ArrayList<>();
        Router.builder().group("/g", groups::add);

        assertThatThrownBy(() -> groups.get(0).build()).isInstanceOf(IllegalStateException.class);
    }
}
