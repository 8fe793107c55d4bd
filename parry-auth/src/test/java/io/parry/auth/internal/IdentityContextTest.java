package io.parry.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.parry.auth.Identity;
import io.parry.http.HttpResponse;
import io.parry.server.RequestContext;
import io.parry.server.TlsInfo;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

class IdentityContextTest {
    private static final TlsInfo TLS = TlsInfo.of("TLSv1.3", "TLS_AES_128_GCM_SHA256", "api.test", "h2", List.of());

    /** What the proxy behind an authentication filter reads: X-Forwarded-Proto, the client certificate, deadlines. */
    @Test
    void passesOnTheConnectionsTlsAndWhenTheRequestWasReceived() {
        RequestContext authenticated =
                new IdentityContext(new ServerContext(), new Identity("Bearer", "alice", Map.of(), Set.of()));

        assertThat(authenticated.tls()).contains(TLS);
        assertThat(authenticated.receivedNanos()).isEqualTo(42L);
    }

    /** The server's context of a request received over TLS, 42 ns into the clock. */
    private static final class ServerContext implements RequestContext {
        @Override
        public Optional<TlsInfo> tls() {
            return Optional.of(TLS);
        }

        @Override
        public long receivedNanos() {
            return 42;
        }

        @Override
        public String requestId() {
            return "1";
        }

        @Override
        public InetSocketAddress remoteAddress() {
            return new InetSocketAddress("127.0.0.1", 50000);
        }

        @Override
        public InetSocketAddress localAddress() {
            return new InetSocketAddress("127.0.0.1", 8443);
        }

        @Override
        public String protocol() {
            return "HTTP/2.0";
        }

        @Override
        public ScheduledExecutorService eventLoop() {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<HttpResponse> runBlocking(Callable<HttpResponse> work) {
            throw new UnsupportedOperationException();
        }
    }
}
