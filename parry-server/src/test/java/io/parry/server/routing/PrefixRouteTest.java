package io.parry.server.routing;

import static io.parry.server.routing.Calls.body;
import static io.parry.server.routing.Calls.call;
import static io.parry.server.routing.Calls.get;
import static io.parry.server.routing.Calls.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpMethod;
import io.parry.http.HttpResponse;
import org.junit.jupiter.api.Test;

class PrefixRouteTest {

    @Test
    void takesThePrefixAndEverythingBelowItAtSegmentBoundaries() {
        Router router = Router.builder().all("/api/**", named("api")).build();

        assertThat(get(router, "/api")).isEqualTo("api {}");
        assertThat(get(router, "/api/")).isEqualTo("api {}");
        assertThat(get(router, "/api/a/b")).isEqualTo("api {}");
        assertThat(call(router, "GET", "/apix").status().code()).isEqualTo(404);
        assertThat(call(router, "GET", "/").status().code()).isEqualTo(404);
    }

    @Test
    void rootPrefixTakesEveryPath() {
        Router router = Router.builder().all("/**", named("root")).build();

        assertThat(get(router, "/")).isEqualTo("root {}");
        assertThat(get(router, "/a/b")).isEqualTo("root {}");
    }

    @Test
    void longestPrefixWinsAndExactPathsAndTemplatesBeatPrefixes() {
        Router router = Router.builder()
                .all("/**", named("root"))
                .all("/users/**", named("users"))
                .get("/users/{id}", named("user"))
                .get("/users/me", named("me"))
                .all("/users/admins/**", named("admins"))
                .build();

        assertThat(get(router, "/users/me")).isEqualTo("me {}");
        assertThat(get(router, "/users/42")).isEqualTo("user {id=42}");
        assertThat(get(router, "/users/42/orders")).isEqualTo("users {}");
        assertThat(get(router, "/users")).isEqualTo("users {}");
        assertThat(get(router, "/users/admins")).isEqualTo("admins {}");
        assertThat(get(router, "/other")).isEqualTo("root {}");
    }

    @Test
    void aPrefixOnALiteralSegmentBeatsAParameterOrCatchAllAtThatSegment() {
        Router router = Router.builder()
                .get("/files/{*path}", named("files"))
                .get("/files/{name}", named("file"))
                .get("/files/public/**", named("public"))
                .build();

        assertThat(get(router, "/files/public")).isEqualTo("public {}");
        assertThat(get(router, "/files/public/a/b")).isEqualTo("public {}");
        assertThat(get(router, "/files/other")).isEqualTo("file {name=other}");
        assertThat(get(router, "/files/a/b")).isEqualTo("files {path=a/b}");
    }

    @Test
    void fallsThroughToAShorterPrefixWhenTheLongerOnesRoutesDoNotTakeTheRequest() {
        Router router = Router.builder()
                .all("/api/**", named("api"))
                .post("/api/orders/**", named("orders"))
                .all("/api/admin/**", named("admin"), route -> route.header("x-admin", "1"))
                .build();

        assertThat(body(call(router, "POST", "/api/orders/1"))).isEqualTo("orders {}");
        assertThat(get(router, "/api/orders/1")).isEqualTo("api {}");
        assertThat(get(router, "/api/admin/x", "x-admin", "1")).isEqualTo("admin {}");
        assertThat(get(router, "/api/admin/x")).isEqualTo("api {}");
    }

    @Test
    void capturesParametersBeforeThePrefix() {
        Router router =
                Router.builder().all("/tenants/{tenant}/**", named("tenant")).build();

        assertThat(get(router, "/tenants/acme/a/b")).isEqualTo("tenant {tenant=acme}");
    }

    @Test
    void triesRoutesOfTheMethodAndOfEveryMethodInDeclarationOrder() {
        Router router = Router.builder()
                .post("/orders/**", named("writes"))
                .all("/orders/**", named("any"), route -> route.header("x-any", "1"))
                .get("/orders/**", named("reads"))
                .build();

        assertThat(body(call(router, "POST", "/orders/1", "x-any", "1"))).isEqualTo("writes {}");
        assertThat(get(router, "/orders/1", "x-any", "1")).isEqualTo("any {}");
        assertThat(get(router, "/orders/1")).isEqualTo("reads {}");
        assertThat(body(call(router, "HEAD", "/orders/1"))).isEqualTo("reads {}");
        assertThat(body(call(router, "PUT", "/orders/1", "x-any", "1"))).isEqualTo("any {}");
    }

    @Test
    void answers405WithTheMethodsOfEveryMatchingPrefix() {
        Router router = Router.builder()
                .get("/api/**", named("read"))
                .put("/api/{id}", named("write"))
                .build();

        HttpResponse response = call(router, "DELETE", "/api/7");

        assertThat(response.status().code()).isEqualTo(405);
        assertThat(response.headers().get("allow")).isEqualTo("GET, HEAD, PUT, OPTIONS");
    }

    @Test
    void listsAPrefixRouteForEveryMethodWithAStar() {
        Router router = Router.builder()
                .all("/api/**", named("api"))
                .route(HttpMethod.of("PURGE"), "/cache/**", named("purge"))
                .build();

        assertThat(router.routes())
                .extracting(Route::toString)
                .containsExactly("* /api/** on event-loop", "PURGE /cache/** on event-loop");
    }

    @Test
    void failsTheBuildOnAPrefixShadowedByAnEarlierOne() {
        Router.Builder builder = Router.builder().all("/api/**", named("a")).get("/api/**", named("b"));

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shadowed route: GET /api/**")
                .hasMessageContaining("because * /api/**");
    }

    @Test
    void rejectsADoubleStarAnywhereButAtTheEnd() {
        Router.Builder builder = Router.builder();

        assertThatThrownBy(() -> builder.all("/a/**/b", named("x"))).hasMessageContaining("** only as a pattern's end");
        assertThatThrownBy(() -> builder.all("/a//**", named("x"))).hasMessageContaining("/** after a segment");
        assertThatThrownBy(() -> builder.all("/{*rest}/**", named("x")))
                .hasMessageContaining("only as a route's last segment");
    }
}
