package io.parry.protection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.testing.ServerExtension;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class IpRulesFilterTest {
    private static final Handler HELLO = Handler.sync((ctx, request) -> HttpResponse.ofText("hello"));

    @RegisterExtension
    static final ServerExtension behindProxy = ServerExtension.of(HELLO.with(IpRulesFilter.builder()
            .allow(List.of("203.0.113.0/24", "2001:db8::/32"))
            .deny(List.of("203.0.113.66"))
            .trustedProxies(List.of("127.0.0.1"))
            .build()));

    @RegisterExtension
    static final ServerExtension direct = ServerExtension.of(
            HELLO.with(IpRulesFilter.builder().deny(List.of("127.0.0.0/8")).build()));

    @Test
    void admitsClientsInAnAllowedBlockBehindATrustedProxy() throws Exception {
        assertThat(status(behindProxy, "203.0.113.7")).isEqualTo(200);
        assertThat(status(behindProxy, "2001:db8::42")).isEqualTo(200);
    }

    @Test
    void refusesClientsOutsideTheAllowedBlocksOrDenied() throws Exception {
        assertThat(status(behindProxy, "198.51.100.1")).isEqualTo(403);
        assertThat(status(behindProxy, "2001:db9::1")).isEqualTo(403);
        assertThat(status(behindProxy, "203.0.113.66")).isEqualTo(403);
    }

    @Test
    void believesOnlyTheEntriesTrustedProxiesAppended() throws Exception {
        assertThat(status(behindProxy, "203.0.113.7, 198.51.100.1")).isEqualTo(403);
        assertThat(status(behindProxy, "garbage")).isEqualTo(403);
        assertThat(status(behindProxy, null)).isEqualTo(403);
    }

    @Test
    void ignoresForwardedForFromAnUntrustedPeer() throws Exception {
        assertThat(status(direct, "203.0.113.7")).isEqualTo(403);
        java.net.http.HttpResponse<String> response =
                direct.client().send(HttpRequest.newBuilder(direct.uri("/")).build(), BodyHandlers.ofString());
        assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
    }

    @Test
    void namesTheBadEntryWhenBuilt() {
        assertThatThrownBy(() -> IpRulesFilter.builder()
                        .allow(List.of("10.0.0.0/8", "10.0.0/8"))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("allow: 10.0.0/8");
    }

    private static int status(ServerExtension server, String forwardedFor) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.uri("/"));
        if (forwardedFor != null) {
            request.header("X-Forwarded-For", forwardedFor);
        }
        return server.client().send(request.build(), BodyHandlers.ofString()).statusCode();
    }
}
