package io.parry.proxy.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.client.Endpoint;
import io.parry.http.HttpBody;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.proxy.ForwardingOptions;
import io.parry.proxy.HeaderRules;
import io.parry.proxy.HostRewrite;
import io.parry.proxy.PathRewrite;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UpstreamRequestsTest {
    private static final Endpoint ENDPOINT = Endpoint.of("10.0.0.7", 8080);
    private static final ForwardingOptions DEFAULTS = ForwardingOptions.ofDefault();
    private static final ForwardingOptions TRUSTING = ForwardingOptions.builder()
            .trustedProxies(List.of("10.0.0.0/8", "2001:db8::/32"))
            .build();

    private static HttpRequest get(String target, String... headers) {
        return HttpRequest.builder(HttpMethod.GET, target)
                .headers(HttpHeaders.of(headers))
                .build();
    }

    private static HttpRequest prepare(HttpRequest incoming, PeerContext ctx, ForwardingOptions forwarding) {
        return UpstreamRequests.prepare(
                incoming, ctx, ENDPOINT, PathRewrite.none(), HostRewrite.keep(), HeaderRules.none(), forwarding);
    }

    @Test
    void addsForwardingFieldsAndViaForAClient() {
        HttpRequest upstream = prepare(get("/a", "host", "shop.example"), PeerContext.from("203.0.113.9"), DEFAULTS);

        assertThat(upstream.headers())
                .isEqualTo(HttpHeaders.of(
                        "x-forwarded-for", "203.0.113.9",
                        "x-forwarded-proto", "http",
                        "x-forwarded-host", "shop.example",
                        "forwarded", "for=203.0.113.9;proto=http;host=shop.example",
                        "via", "1.1 parry",
                        "host", "shop.example"));
    }

    @Test
    void keepsTheEndToEndFieldsInOrderAndLeavesOutExpectAndTheCallersTraceFields() {
        HttpRequest incoming = get(
                "/a",
                "host",
                "shop.example",
                "Accept",
                "text/plain",
                "Expect",
                "100-continue",
                "traceparent",
                "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                "tracestate",
                "k=v",
                "b3",
                "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1",
                "X-B3-TraceId",
                "80f198ee56343ba864fe8b2a57d3eff7",
                "Via",
                "1.1 edge",
                "Cookie",
                "a=1");

        HttpRequest upstream = prepare(incoming, PeerContext.from("203.0.113.9"), DEFAULTS);

        assertThat(upstream.headers())
                .isEqualTo(HttpHeaders.of(
                        "Accept", "text/plain",
                        "Cookie", "a=1",
                        "x-forwarded-for", "203.0.113.9",
                        "x-forwarded-proto", "http",
                        "x-forwarded-host", "shop.example",
                        "forwarded", "for=203.0.113.9;proto=http;host=shop.example",
                        "via", "1.1 edge, 1.1 parry",
                        "host", "shop.example"));
    }

    @Test
    void keepsTeTrailersForGrpcAndNeverForwardsAnH2cUpgrade() {
        HttpRequest incoming = get(
                "/a",
                "host",
                "shop.example",
                "Connection",
                "Upgrade, HTTP2-Settings, TE",
                "Upgrade",
                "h2c",
                "HTTP2-Settings",
                "AAMAAABkAAQCAAAAAAIAAAAA",
                "TE",
                "trailers",
                "content-type",
                "application/grpc");

        HttpRequest upstream = prepare(
                incoming,
                PeerContext.from("10.1.2.3"),
                ForwardingOptions.builder()
                        .xForwarded(false)
                        .forwarded(false)
                        .via("")
                        .build());

        assertThat(upstream.headers())
                .isEqualTo(
                        HttpHeaders.of("te", "trailers", "content-type", "application/grpc", "host", "shop.example"));
    }

    @Test
    void dropsTeValuesOtherThanTrailers() {
        HttpRequest upstream = prepare(
                get("/a", "host", "shop.example", "TE", "gzip, trailers"),
                PeerContext.from("10.1.2.3"),
                ForwardingOptions.builder()
                        .xForwarded(false)
                        .forwarded(false)
                        .via("")
                        .build());

        assertThat(upstream.headers().contains("te")).isFalse();
    }

    @Test
    void replacesSpoofedForwardingFieldsFromAnUntrustedPeer() {
        HttpRequest incoming = get(
                "/a",
                "host",
                "shop.example",
                "X-Forwarded-For",
                "6.6.6.6",
                "x-forwarded-for",
                "7.7.7.7",
                "X-Forwarded-Proto",
                "https",
                "X-Forwarded-Host",
                "evil.example",
                "Forwarded",
                "for=6.6.6.6;proto=https");

        HttpHeaders headers =
                prepare(incoming, PeerContext.from("203.0.113.9"), TRUSTING).headers();

        assertThat(headers.getAll("x-forwarded-for")).containsExactly("203.0.113.9");
        assertThat(headers.getAll("x-forwarded-proto")).containsExactly("http");
        assertThat(headers.getAll("x-forwarded-host")).containsExactly("shop.example");
        assertThat(headers.getAll("forwarded")).containsExactly("for=203.0.113.9;proto=http;host=shop.example");
    }

    @Test
    void appendsToTheForwardingFieldsOfATrustedIpv4Peer() {
        HttpRequest incoming = get(
                "/a",
                "host",
                "shop.example",
                "X-Forwarded-For",
                "198.51.100.1, 10.9.9.9",
                "X-Forwarded-For",
                "10.8.8.8",
                "X-Forwarded-Proto",
                "https",
                "X-Forwarded-Host",
                "www.shop.example",
                "Forwarded",
                "for=198.51.100.1;proto=https");

        HttpHeaders headers =
                prepare(incoming, PeerContext.from("10.1.2.3"), TRUSTING).headers();

        assertThat(headers.getAll("x-forwarded-for")).containsExactly("198.51.100.1, 10.9.9.9, 10.8.8.8, 10.1.2.3");
        assertThat(headers.getAll("x-forwarded-proto")).containsExactly("https");
        assertThat(headers.getAll("x-forwarded-host")).containsExactly("www.shop.example");
        assertThat(headers.getAll("forwarded"))
                .containsExactly("for=198.51.100.1;proto=https, for=10.1.2.3;proto=http;host=shop.example");
    }

    @Test
    void addsItsOwnValuesForATrustedPeerThatSentNone() {
        HttpHeaders headers = prepare(get("/a", "host", "shop.example"), PeerContext.from("10.1.2.3"), TRUSTING)
                .headers();

        assertThat(headers.getAll("x-forwarded-for")).containsExactly("10.1.2.3");
        assertThat(headers.getAll("x-forwarded-proto")).containsExactly("http");
        assertThat(headers.getAll("x-forwarded-host")).containsExactly("shop.example");
    }

    @Test
    void appendsToTheForwardingFieldsOfATrustedIpv6PeerAndQuotesIt() {
        HttpRequest incoming = get("/a", "host", "shop.example", "x-forwarded-for", "198.51.100.1");

        HttpHeaders headers =
                prepare(incoming, PeerContext.from("2001:db8::1"), TRUSTING).headers();

        assertThat(headers.get("x-forwarded-for")).isEqualTo("198.51.100.1, 2001:db8::1");
        assertThat(headers.get("forwarded")).isEqualTo("for=\"[2001:db8::1]\";proto=http;host=shop.example");
    }

    @Test
    void distrustsAnIpv6PeerOutsideTheTrustedBlocks() {
        HttpRequest incoming = get("/a", "host", "shop.example", "x-forwarded-for", "198.51.100.1");

        HttpHeaders headers =
                prepare(incoming, PeerContext.from("2001:db9::1"), TRUSTING).headers();

        assertThat(headers.get("x-forwarded-for")).isEqualTo("2001:db9::1");
    }

    @Test
    void quotesAHostWithAPortInForwarded() {
        HttpHeaders headers = prepare(get("/a", "host", "shop.example:8443"), PeerContext.from("203.0.113.9"), DEFAULTS)
                .headers();

        assertThat(headers.get("forwarded")).isEqualTo("for=203.0.113.9;proto=http;host=\"shop.example:8443\"");
        assertThat(headers.get("x-forwarded-host")).isEqualTo("shop.example:8443");
    }

    @Test
    void forwardsAnHttp10RequestWithVia10AndTheEndpointAsHost() {
        HttpRequest upstream =
                prepare(get("/a"), PeerContext.from("203.0.113.9").protocol("HTTP/1.0"), DEFAULTS);

        assertThat(upstream.headers())
                .isEqualTo(HttpHeaders.of(
                        "x-forwarded-for", "203.0.113.9",
                        "x-forwarded-proto", "http",
                        "forwarded", "for=203.0.113.9;proto=http",
                        "via", "1.0 parry",
                        "host", "10.0.0.7:8080"));
    }

    @Test
    void appendsToTheViaOfAnyPeer() {
        HttpRequest incoming = get("/a", "host", "h", "via", "1.1 edge", "Via", "1.0 old");

        HttpHeaders headers =
                prepare(incoming, PeerContext.from("203.0.113.9"), DEFAULTS).headers();

        assertThat(headers.getAll("via")).containsExactly("1.1 edge, 1.0 old, 1.1 parry");
    }

    @Test
    void sendsNoViaWhenThePseudonymIsEmpty() {
        ForwardingOptions noVia = DEFAULTS.toBuilder().via("").build();

        HttpHeaders headers = prepare(get("/a", "host", "h", "via", "1.1 edge"), PeerContext.from("203.0.113.9"), noVia)
                .headers();

        assertThat(headers.getAll("via")).containsExactly("1.1 edge");
    }

    @Test
    void dropsSpoofedValuesEvenWhenItAddsNoneOfItsOwn() {
        ForwardingOptions none = ForwardingOptions.builder()
                .xForwarded(false)
                .forwarded(false)
                .via("")
                .build();
        HttpRequest incoming = get("/a", "host", "h", "x-forwarded-for", "6.6.6.6", "forwarded", "for=6.6.6.6");

        HttpRequest upstream = prepare(incoming, PeerContext.from("203.0.113.9"), none);

        assertThat(upstream.headers()).isEqualTo(HttpHeaders.of("host", "h"));
    }

    @Test
    void keepsATrustedPeersValuesUnchangedWhenItAddsNoneOfItsOwn() {
        ForwardingOptions none =
                TRUSTING.toBuilder().xForwarded(false).forwarded(false).build();
        HttpRequest incoming = get("/a", "host", "h", "x-forwarded-for", "1.2.3.4", "forwarded", "for=1.2.3.4");

        HttpHeaders headers =
                prepare(incoming, PeerContext.from("10.1.2.3"), none).headers();

        assertThat(headers.get("x-forwarded-for")).isEqualTo("1.2.3.4");
        assertThat(headers.get("forwarded")).isEqualTo("for=1.2.3.4");
        assertThat(headers.contains("x-forwarded-proto")).isFalse();
    }

    @Test
    void addsOnlyTheKindOfForwardingFieldsAskedFor() {
        ForwardingOptions onlyForwarded = DEFAULTS.toBuilder().xForwarded(false).build();
        ForwardingOptions onlyXForwarded = DEFAULTS.toBuilder().forwarded(false).build();
        PeerContext ctx = PeerContext.from("203.0.113.9");

        HttpHeaders forwarded =
                prepare(get("/a", "host", "h"), ctx, onlyForwarded).headers();
        HttpHeaders xForwarded =
                prepare(get("/a", "host", "h"), ctx, onlyXForwarded).headers();

        assertThat(forwarded.contains("forwarded")).isTrue();
        assertThat(forwarded.contains("x-forwarded-for")).isFalse();
        assertThat(xForwarded.contains("forwarded")).isFalse();
        assertThat(xForwarded.contains("x-forwarded-for")).isTrue();
    }

    @Test
    void writesUnknownForAPeerWithoutAnAddress() {
        HttpHeaders headers = prepare(get("/a", "host", "h"), PeerContext.unresolved(), DEFAULTS)
                .headers();

        assertThat(headers.get("x-forwarded-for")).isEqualTo("unknown");
        assertThat(headers.get("forwarded")).isEqualTo("for=unknown;proto=http;host=h");
    }

    @Test
    void removesHopByHopFieldsAndKeepsTheBodyAndItsLength() {
        HttpBody body = HttpBody.ofUtf8("hello");
        HttpRequest incoming = HttpRequest.builder(HttpMethod.POST, "/a")
                .header("host", "h")
                .header("connection", "keep-alive, x-hop")
                .header("x-hop", "1")
                .header("keep-alive", "timeout=5")
                .header("te", "gzip")
                .header("proxy-authorization", "Basic eA==")
                .header("content-length", "5")
                .header("authorization", "Bearer t")
                .body(body)
                .build();

        HttpRequest upstream = prepare(incoming, PeerContext.from("203.0.113.9"), DEFAULTS);

        assertThat(upstream.body()).isSameAs(body);
        assertThat(upstream.method()).isEqualTo(HttpMethod.POST);
        assertThat(upstream.headers().get("content-length")).isEqualTo("5");
        assertThat(upstream.headers().get("authorization")).isEqualTo("Bearer t");
        for (String hop : List.of("connection", "x-hop", "keep-alive", "te", "proxy-authorization")) {
            assertThat(upstream.headers().contains(hop)).as(hop).isFalse();
        }
    }

    @Test
    void dropsAForwardingFieldThatATrustedPeerNamedInConnection() {
        HttpRequest incoming =
                get("/a", "host", "h", "connection", "x-forwarded-for", "x-forwarded-for", "198.51.100.1");

        HttpHeaders headers =
                prepare(incoming, PeerContext.from("10.1.2.3"), TRUSTING).headers();

        assertThat(headers.getAll("x-forwarded-for")).containsExactly("10.1.2.3");
    }

    @Test
    void setsTheHostTheRewriteGives() {
        HttpRequest incoming = get("/a", "host", "shop.example");
        PeerContext ctx = PeerContext.from("203.0.113.9");

        HttpRequest toEndpoint = UpstreamRequests.prepare(
                incoming, ctx, ENDPOINT, PathRewrite.none(), HostRewrite.endpoint(), HeaderRules.none(), DEFAULTS);
        HttpRequest toFixed = UpstreamRequests.prepare(
                incoming,
                ctx,
                ENDPOINT,
                PathRewrite.none(),
                HostRewrite.fixed("api.internal"),
                HeaderRules.none(),
                DEFAULTS);

        assertThat(toEndpoint.headers().getAll("host")).containsExactly("10.0.0.7:8080");
        assertThat(toEndpoint.headers().get("x-forwarded-host")).isEqualTo("shop.example");
        assertThat(toFixed.headers().getAll("host")).containsExactly("api.internal");
    }

    @Test
    void rewritesThePathAndKeepsTheQuery() {
        HttpRequest upstream = UpstreamRequests.prepare(
                get("/api/users?x=1&y", "host", "h"),
                PeerContext.from("203.0.113.9"),
                ENDPOINT,
                PathRewrite.stripPrefix("/api"),
                HostRewrite.keep(),
                HeaderRules.none(),
                DEFAULTS);

        assertThat(upstream.target()).isEqualTo("/users?x=1&y");
        assertThat(upstream.path()).isEqualTo("/users");
        assertThat(upstream.query()).isEqualTo("x=1&y");
        assertThat(upstream.headers().get("host")).isEqualTo("h");
    }

    @Test
    void fillsATemplateFromTheRoutesPathParameters() {
        PeerContext ctx = PeerContext.from("203.0.113.9").pathParams(Map.of("id", "42"));

        HttpRequest upstream = UpstreamRequests.prepare(
                get("/people/42?full", "host", "h"),
                ctx,
                ENDPOINT,
                PathRewrite.template("/users/{id}/profile"),
                HostRewrite.keep(),
                HeaderRules.none(),
                DEFAULTS);

        assertThat(upstream.target()).isEqualTo("/users/42/profile?full");
    }

    @Test
    void failsWhenATemplateNeedsAParameterTheRouteDidNotMatch() {
        assertThatThrownBy(() -> UpstreamRequests.prepare(
                        get("/people/42", "host", "h"),
                        PeerContext.from("203.0.113.9"),
                        ENDPOINT,
                        PathRewrite.template("/users/{id}"),
                        HostRewrite.keep(),
                        HeaderRules.none(),
                        DEFAULTS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pathParams: no id");
    }

    @Test
    void keepsTheReceivedTargetWhenNothingChangesIt() {
        HttpRequest incoming = get("/a/b?c=d", "host", "h");

        HttpRequest upstream = prepare(incoming, PeerContext.from("203.0.113.9"), DEFAULTS);

        assertThat(upstream.target()).isSameAs(incoming.target());
    }

    @Test
    void sendsTheNormalisedPathThatTheRouterSaw() {
        HttpRequest upstream = prepare(get("/a/../b/%7Ex?q", "host", "h"), PeerContext.from("203.0.113.9"), DEFAULTS);

        assertThat(upstream.target()).isEqualTo("/b/~x?q");
    }

    @Test
    void sendsAnAbsoluteFormRequestInOriginForm() {
        HttpRequest upstream = prepare(get("http://shop.example:81/a?b"), PeerContext.from("203.0.113.9"), DEFAULTS);

        assertThat(upstream.target()).isEqualTo("/a?b");
        assertThat(upstream.headers().getAll("host")).containsExactly("shop.example:81");
    }

    @Test
    void keepsAsteriskFormForOptions() {
        HttpRequest options =
                HttpRequest.builder(HttpMethod.OPTIONS, "*").header("host", "h").build();

        HttpRequest upstream = UpstreamRequests.prepare(
                options,
                PeerContext.from("203.0.113.9"),
                ENDPOINT,
                PathRewrite.replacePrefix("/", "/v2"),
                HostRewrite.keep(),
                HeaderRules.none(),
                DEFAULTS);

        assertThat(upstream.target()).isEqualTo("*");
    }

    @Test
    void appliesTheRequestRulesLast() {
        HeaderRules rules = HeaderRules.builder()
                .remove("x-forwarded-for")
                .set("host", "override.example")
                .add("x-gateway", "parry")
                .build();

        HttpRequest upstream = UpstreamRequests.prepare(
                get("/a", "host", "h"),
                PeerContext.from("203.0.113.9"),
                ENDPOINT,
                PathRewrite.none(),
                HostRewrite.keep(),
                rules,
                DEFAULTS);

        assertThat(upstream.headers().contains("x-forwarded-for")).isFalse();
        assertThat(upstream.headers().getAll("host")).containsExactly("override.example");
        assertThat(upstream.headers().get("x-gateway")).isEqualTo("parry");
    }

    @Test
    void leavesTheIncomingRequestUnchanged() {
        HttpRequest incoming = get("/api/a", "host", "h", "connection", "close");

        UpstreamRequests.prepare(
                incoming,
                PeerContext.from("203.0.113.9"),
                ENDPOINT,
                PathRewrite.stripPrefix("/api"),
                HostRewrite.fixed("x"),
                HeaderRules.builder().add("a", "b").build(),
                DEFAULTS);

        assertThat(incoming.target()).isEqualTo("/api/a");
        assertThat(incoming.headers()).isEqualTo(HttpHeaders.of("host", "h", "connection", "close"));
    }
}
