package io.parry.server.routing;

import static io.parry.server.routing.Calls.body;
import static io.parry.server.routing.Calls.get;
import static io.parry.server.routing.Calls.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.parry.http.AddressBlocks;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.StubContext;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestFactConditionsTest {
    private static final AddressBlocks OFFICE = AddressBlocks.parse("clients", List.of("10.0.0.0/8", "2001:db8::/32"));
    private static final AddressBlocks PROXIES = AddressBlocks.parse("trustedProxies", List.of("192.0.2.1"));

    @Test
    void selectsByAQueryParameterThatIsPresentWithAnyValue() {
        Router router = Router.builder()
                .get("/", named("beta"), route -> route.queryPresent("beta"))
                .get("/", named("other"))
                .build();

        assertThat(get(router, "/?beta")).isEqualTo("beta {}");
        assertThat(get(router, "/?a=1&beta=")).isEqualTo("beta {}");
        assertThat(get(router, "/?a=1&beta=no")).isEqualTo("beta {}");
        assertThat(get(router, "/?betas=1&xbeta")).isEqualTo("other {}");
        assertThat(get(router, "/")).isEqualTo("other {}");
    }

    @Test
    void selectsByTheDecodedValueOfTheFirstQueryParameterOfThatName() {
        Router router = Router.builder()
                .get("/", named("v2"), route -> route.query("version", "2"))
                .get("/", named("spaced"), route -> route.query("q", "a b"))
                .get("/", named("other"))
                .build();

        assertThat(get(router, "/?x=1&version=2")).isEqualTo("v2 {}");
        assertThat(get(router, "/?version=2&version=3")).isEqualTo("v2 {}");
        assertThat(get(router, "/?version=3&version=2")).isEqualTo("other {}");
        assertThat(get(router, "/?version=22")).isEqualTo("other {}");
        assertThat(get(router, "/?vers%69on=%32")).isEqualTo("v2 {}");
        assertThat(get(router, "/?q=a+b")).isEqualTo("spaced {}");
        assertThat(get(router, "/?q=a%20b")).isEqualTo("spaced {}");
    }

    @Test
    void selectsByTheExactValueOfTheFirstCookieOfThatName() {
        Router router = Router.builder()
                .get("/", named("canary"), route -> route.cookie("canary", "always"))
                .get("/", named("other"))
                .build();

        assertThat(get(router, "/", "cookie", "canary=always")).isEqualTo("canary {}");
        assertThat(get(router, "/", "cookie", "a=1;  canary = \"always\" ; b=2"))
                .isEqualTo("canary {}");
        assertThat(get(router, "/", "cookie", "a=1", "cookie", "canary=always")).isEqualTo("canary {}");
        assertThat(get(router, "/", "cookie", "canary=never; canary=always")).isEqualTo("other {}");
        assertThat(get(router, "/", "cookie", "xcanary=always; canary=alwaysx")).isEqualTo("other {}");
        assertThat(get(router, "/", "cookie", "canary")).isEqualTo("other {}");
        assertThat(get(router, "/", "x-canary", "canary=always")).isEqualTo("other {}");
    }

    @Test
    void selectsByTheClientAddressBehindTrustedProxies() {
        Router router = Router.builder()
                .get("/", named("office"), route -> route.clientAddress(OFFICE, PROXIES))
                .get("/", named("other"))
                .build();

        assertThat(from(router, "10.1.2.3")).isEqualTo("office {}");
        assertThat(from(router, "2001:db8::7")).isEqualTo("office {}");
        assertThat(from(router, "11.1.2.3")).isEqualTo("other {}");
        assertThat(from(router, "192.0.2.1", "x-forwarded-for", "10.9.9.9")).isEqualTo("office {}");
        assertThat(from(router, "192.0.2.1", "x-forwarded-for", "10.9.9.9, 11.0.0.1"))
                .isEqualTo("other {}");
        assertThat(from(router, "11.1.2.3", "x-forwarded-for", "10.9.9.9")).isEqualTo("other {}");
        assertThat(from(router, "192.0.2.1", "x-forwarded-for", "not-an-address"))
                .isEqualTo("other {}");
    }

    @Test
    void answers404WhenNoRoutesClientAddressConditionHolds() {
        Router router = Router.builder()
                .get("/", named("office"), route -> route.clientAddress(OFFICE, AddressBlocks.none()))
                .build();

        assertThat(call(router, "11.1.2.3").status().code()).isEqualTo(404);
    }

    @Test
    void findsARouteWithAClientAddressConditionOnlyWithTheConnection() {
        Router router = Router.builder()
                .get("/", named("office"), route -> route.name("office").clientAddress(OFFICE, AddressBlocks.none()))
                .build();
        HttpRequest request = HttpRequest.of(HttpMethod.GET, "/");

        assertThat(router.find(request)).isEmpty();
        assertThat(router.find(context("10.0.0.1"), request).map(Route::name)).hasValue("office");
    }

    @Test
    void describesTheNewConditionsInTheRouteTable() {
        Router router = Router.builder()
                .get("/", named("x"), route -> route.queryPresent("beta")
                        .query("v", "2")
                        .cookie("canary", "always")
                        .clientAddress(OFFICE, AddressBlocks.none()))
                .build();

        assertThat(router.routes().get(0).conditions())
                .containsExactly(
                        "query beta", "query v=2", "cookie canary=always", "clientAddress [10.0.0.0/8, 2001:db8::/32]");
    }

    @Test
    void treatsTheSameNewConditionsAsDuplicates() {
        List<String> findings = new java.util.ArrayList<>();
        Router.builder()
                .onShadowedRoute(findings::add)
                .get("/", named("a"), route -> route.cookie("c", "1").clientAddress(OFFICE, PROXIES))
                .get("/", named("b"), route -> route.cookie("c", "1").clientAddress(OFFICE, PROXIES))
                .get("/", named("c"), route -> route.cookie("c", "2").clientAddress(OFFICE, PROXIES))
                .build();

        assertThat(findings).hasSize(1);
    }

    @Test
    void rejectsAnEmptyClientAddressList() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Router.builder()
                        .get("/", named("x"), route -> route.clientAddress(AddressBlocks.none(), AddressBlocks.none())))
                .withMessage("clients: [] (expected: at least one address or block)");
    }

    private static String from(Router router, String address, String... headers) {
        return body(call(router, address, headers));
    }

    private static HttpResponse call(Router router, String address, String... headers) {
        HttpRequest.Builder request = HttpRequest.builder(HttpMethod.GET, "/").header("host", "a");
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        try {
            return router.handle(context(address), request.build())
                    .toCompletableFuture()
                    .join();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static StubContext context(String address) {
        return new StubContext(new InetSocketAddress(address, 40000));
    }
}
