package io.parry.server.routing;

import static io.parry.server.routing.Calls.call;
import static io.parry.server.routing.Calls.get;
import static io.parry.server.routing.Calls.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouteConditionsTest {

    @Test
    void selectsByHostIgnoringCaseAndThePortUnlessTheConditionNamesOne() {
        Router router = Router.builder()
                .get("/", named("tls"), route -> route.host("example.com:8443"))
                .get("/", named("api"), route -> route.host("API.example.com"))
                .get("/", named("other"))
                .build();

        assertThat(get(router, "/", "host", "api.EXAMPLE.com:8080")).isEqualTo("api {}");
        assertThat(get(router, "/", "host", "example.com:8443")).isEqualTo("tls {}");
        assertThat(get(router, "/", "host", "example.com")).isEqualTo("other {}");
        assertThat(get(router, "/", "host", "web.example.com")).isEqualTo("other {}");
    }

    @Test
    void matchesAHostConditionAgainstAnIpv6LiteralWithAPort() {
        Router router = Router.builder()
                .get("/", named("v6"), route -> route.host("[::1]"))
                .build();

        assertThat(get(router, "/", "host", "[::1]:8080")).isEqualTo("v6 {}");
    }

    @Test
    void answers404WhenNoRoutesHostConditionHolds() {
        Router router = Router.builder()
                .get("/", named("api"), route -> route.host("api.example.com"))
                .build();

        HttpResponse response = call(router, "GET", "/", "host", "web.example.com");

        assertThat(response.status().code()).isEqualTo(404);
        assertThat(Calls.body(response)).contains("matches the request's host, headers and query");
    }

    @Test
    void rejectsAHostThatIsNoHost() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Router.builder().get("/", named("x"), route -> route.host("a b")))
                .withMessage("host: a b (expected: a host with an optional port, such as api.example.com)");
    }

    @Test
    void findsTheRouteARequestWouldGetByItsName() {
        Router router = Router.builder()
                .all("/api/**", named("api"), route -> route.name("api"))
                .get("/api/{id}", named("item"))
                .build();

        assertThat(router.find(HttpRequest.of(HttpMethod.POST, "/api/7")).map(Route::name))
                .hasValue("api");
        assertThat(router.find(HttpRequest.of(HttpMethod.GET, "/api/7")).map(Route::name))
                .hasValue("/api/{id}");
        assertThat(router.find(HttpRequest.of(HttpMethod.GET, "/other"))).isEmpty();
    }

    @Test
    void reportsShadowedRoutesInsteadOfFailingWhenAskedAndTheFirstDeclaredWins() {
        List<String> findings = new ArrayList<>();
        Router router = Router.builder()
                .onShadowedRoute(findings::add)
                .all("/dup/**", named("first"), route -> route.name("first"))
                .all("/dup/**", named("second"), route -> route.name("second"))
                .build();

        assertThat(get(router, "/dup/x")).isEqualTo("first {}");
        assertThat(findings)
                .singleElement()
                .asString()
                .startsWith("duplicate route: * /dup/** name=second on event-loop")
                .contains("* /dup/** name=first");
    }

    @Test
    void stillFailsTheBuildOnACatchAllWhereAMountIsWhenShadowedRoutesAreReported() {
        Router.Builder builder = Router.builder()
                .onShadowedRoute(finding -> {})
                .mount("/v2", named("mounted"))
                .get("/v2/{*rest}", named("catch-all"));

        assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class);
    }
}
