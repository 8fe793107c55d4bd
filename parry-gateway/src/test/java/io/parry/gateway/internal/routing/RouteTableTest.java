package io.parry.gateway.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.testing.HandlerTester;
import io.parry.testing.TestResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouteTableTest {

    @Test
    void exactPathBeatsTemplateWhichBeatsPrefix() {
        RouteTable table = RouteTable.builder()
                .add(route("prefix", PathPattern.prefix("/users")))
                .add(route("template", PathPattern.path("/users/{id}")))
                .add(route("exact", PathPattern.path("/users/me")))
                .build();

        assertThat(select(table, "/users/me")).isEqualTo("exact");
        assertThat(select(table, "/users/42")).isEqualTo("template");
        assertThat(select(table, "/users/42/orders")).isEqualTo("prefix");
        assertThat(select(table, "/users")).isEqualTo("prefix");
    }

    @Test
    void longestPrefixWinsAtSegmentBoundaries() {
        RouteTable table = RouteTable.builder()
                .add(route("root", PathPattern.prefix("/")))
                .add(route("api", PathPattern.prefix("/api")))
                .add(route("v2", PathPattern.prefix("/api/v2/")))
                .build();

        assertThat(select(table, "/api")).isEqualTo("api");
        assertThat(select(table, "/api/")).isEqualTo("api");
        assertThat(select(table, "/api/v2")).isEqualTo("v2");
        assertThat(select(table, "/api/v2/users")).isEqualTo("v2");
        assertThat(select(table, "/api/v22")).isEqualTo("api");
        assertThat(select(table, "/apix")).isEqualTo("root");
        assertThat(select(table, "/")).isEqualTo("root");
    }

    @Test
    void prefixDoesNotMatchInsideASegment() {
        RouteTable table = RouteTable.builder()
                .add(route("api", PathPattern.prefix("/api")))
                .build();

        assertThat(select(table, "/apix")).isNull();
        assertThat(select(table, "/ap")).isNull();
    }

    @Test
    void literalTemplateSegmentBeatsAParameterWhichBeatsACatchAll() {
        RouteTable table = RouteTable.builder()
                .add(route("catch-all", PathPattern.path("/files/{*path}")))
                .add(route("param", PathPattern.path("/files/{name}")))
                .add(route("literal", PathPattern.path("/files/{name}/raw")))
                .build();

        assertThat(select(table, "/files/a")).isEqualTo("param");
        assertThat(select(table, "/files/a/raw")).isEqualTo("literal");
        assertThat(select(table, "/files/a/b/c")).isEqualTo("catch-all");
        assertThat(select(table, "/files/")).isEqualTo("catch-all");
        assertThat(select(table, "/files")).isNull();
    }

    @Test
    void aParameterTakesOneNonEmptySegment() {
        RouteTable table = RouteTable.builder()
                .add(route("user", PathPattern.path("/users/{id}")))
                .build();

        assertThat(select(table, "/users/")).isNull();
        assertThat(select(table, "/users/1/2")).isNull();
    }

    @Test
    void firstDeclaredRouteWhoseConditionsHoldWinsAmongTheSamePath() {
        RouteTable table = RouteTable.builder()
                .add(route(
                        "posts", PathPattern.prefix("/api"), Conditions.of(List.of(HttpMethod.POST), null, Map.of())))
                .add(route("first", PathPattern.prefix("/api")))
                .add(route("second", PathPattern.prefix("/api")))
                .build();

        assertThat(select(table, request(HttpMethod.POST, "/api/x"))).isEqualTo("posts");
        assertThat(select(table, "/api/x")).isEqualTo("first");
    }

    @Test
    void methodHostAndHeaderConditionsMustAllHold() {
        Conditions conditions = Conditions.of(List.of(HttpMethod.GET), "API.example.com", Map.of("X-Env", "prod"));
        RouteTable table = RouteTable.builder()
                .add(route("guarded", PathPattern.prefix("/"), conditions))
                .build();

        HttpRequest matching = HttpRequest.builder(HttpMethod.GET, "/x")
                .header("host", "api.example.com:8080")
                .header("x-env", "prod")
                .build();
        assertThat(select(table, matching)).isEqualTo("guarded");
        assertThat(select(
                        table,
                        HttpRequest.builder(HttpMethod.HEAD, "/x")
                                .headers(matching.headers())
                                .build()))
                .isEqualTo("guarded");
        assertThat(select(
                        table,
                        HttpRequest.builder(HttpMethod.POST, "/x")
                                .headers(matching.headers())
                                .build()))
                .isNull();
        assertThat(select(table, matching.withHeaders(matching.headers().with("host", "web.example.com"))))
                .isNull();
        assertThat(select(table, matching.withHeaders(matching.headers().with("x-env", "dev"))))
                .isNull();
        assertThat(select(table, matching.withHeaders(matching.headers().without("x-env"))))
                .isNull();
    }

    @Test
    void hostConditionWithAPortComparesThePort() {
        RouteTable table = RouteTable.builder()
                .add(route("port", PathPattern.prefix("/"), Conditions.of(List.of(), "example.com:8443", Map.of())))
                .build();

        assertThat(select(table, withHost("example.com:8443"))).isEqualTo("port");
        assertThat(select(table, withHost("example.com"))).isNull();
        assertThat(select(table, withHost("example.com:80"))).isNull();
    }

    @Test
    void fallsBackToALessSpecificPathWhenConditionsFail() {
        RouteTable table = RouteTable.builder()
                .add(route("api", PathPattern.prefix("/api")))
                .add(route(
                        "admin",
                        PathPattern.prefix("/api/admin"),
                        Conditions.of(List.of(), null, Map.of("x-admin", "1"))))
                .add(route(
                        "exact",
                        PathPattern.path("/api/admin/x"),
                        Conditions.of(List.of(HttpMethod.PUT), null, Map.of())))
                .build();

        assertThat(select(table, "/api/admin/x")).isEqualTo("api");
        assertThat(select(table, request(HttpMethod.PUT, "/api/admin/x"))).isEqualTo("exact");
        assertThat(select(
                        table,
                        HttpRequest.builder(HttpMethod.GET, "/api/admin/x")
                                .header("x-admin", "1")
                                .build()))
                .isEqualTo("admin");
    }

    @Test
    void answers404AsAProblemWhenNoRouteMatches() {
        RouteTable table = RouteTable.builder()
                .add(route("api", PathPattern.prefix("/api")))
                .build();

        try (HandlerTester tester = HandlerTester.of(new GatewayHandler(() -> table))) {
            TestResponse response = tester.get("/web");

            assertThat(response.status()).isEqualTo(404);
            assertThat(response.header("content-type")).isEqualTo("application/problem+json");
            assertThat(response.bodyText()).contains("\"detail\":\"No route matches /web.\"");
        }
    }

    @Test
    void answers405WithAllowWhenOnlyTheMethodIsWrong() {
        RouteTable table = RouteTable.builder()
                .add(route("read", PathPattern.prefix("/api"), Conditions.of(List.of(HttpMethod.GET), null, Map.of())))
                .add(route(
                        "write", PathPattern.path("/api/{id}"), Conditions.of(List.of(HttpMethod.PUT), null, Map.of())))
                .build();

        try (HandlerTester tester = HandlerTester.of(new GatewayHandler(() -> table))) {
            TestResponse response = tester.send(request(HttpMethod.DELETE, "/api/7"));

            assertThat(response.status()).isEqualTo(405);
            assertThat(response.header("allow")).isEqualTo("GET, HEAD, PUT");
        }
    }

    @Test
    void passesTemplateParametersOnlyToRoutesThatAskForThem() {
        GatewayRoute withParams = GatewayRoute.withParams(
                "with", PathPattern.path("/a/{id}"), Conditions.NONE, (ctx, request) -> HttpResponse.ofText(
                                ctx.pathParams().toString())
                        .toStage());
        GatewayRoute without = GatewayRoute.of(
                "without", PathPattern.path("/b/{id}"), Conditions.NONE, (ctx, request) -> HttpResponse.ofText(
                                ctx.pathParams().toString())
                        .toStage());
        RouteTable table = RouteTable.builder().add(withParams).add(without).build();

        try (HandlerTester tester = HandlerTester.of(new GatewayHandler(() -> table))) {
            assertThat(tester.get("/a/7").bodyText()).isEqualTo("{id=7}");
            assertThat(tester.get("/b/7").bodyText()).isEqualTo("{}");
        }
    }

    @Test
    void emptyTableMatchesNothing() {
        assertThat(RouteTable.empty().select(HttpRequest.of(HttpMethod.GET, "/")))
                .isNull();
    }

    private static GatewayRoute route(String name, PathPattern pattern) {
        return route(name, pattern, Conditions.NONE);
    }

    private static GatewayRoute route(String name, PathPattern pattern, Conditions conditions) {
        return GatewayRoute.of(name, pattern, conditions, (ctx, request) -> HttpResponse.ofText(name)
                .toStage());
    }

    private static HttpRequest request(HttpMethod method, String target) {
        return HttpRequest.of(method, target);
    }

    private static HttpRequest withHost(String host) {
        return HttpRequest.builder(HttpMethod.GET, "/").header("host", host).build();
    }

    private static String select(RouteTable table, String path) {
        return select(table, request(HttpMethod.GET, path));
    }

    private static String select(RouteTable table, HttpRequest request) {
        GatewayRoute route = table.select(request);
        return route == null ? null : route.name();
    }
}
