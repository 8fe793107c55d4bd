package io.parry.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Errors;
import io.parry.client.Endpoint;
import io.parry.client.LocalResourceException;
import io.parry.client.UpstreamConnectException;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.SocketException;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A connect that fails for want of a local port ({@code EADDRNOTAVAIL}) is the gateway's own failure,
 * on every transport, so the proxy counts it against no upstream; a refused connect is the upstream's.
 */
class ConnectFailuresTest {
    private static final Endpoint ENDPOINT = Endpoint.of("127.0.0.1", 80);
    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    @Test
    void blamesTheGatewayWhenEpollFindsNoLocalPort() {
        Assumptions.assumeTrue(Epoll.isAvailable(), "needs Linux with Netty's epoll transport");

        assertThat(Connector.failure(ENDPOINT, TIMEOUT, epollConnectFailure(99)))
                .isInstanceOf(LocalResourceException.class)
                .hasMessageContaining("Cannot assign requested address");
        assertThat(Connector.failure(ENDPOINT, TIMEOUT, epollConnectFailure(111)))
                .isInstanceOf(UpstreamConnectException.class);
    }

    @Test
    void blamesTheGatewayWhenNioFindsNoLocalPort() {
        SocketException annotated = new SocketException("Cannot assign requested address: /127.0.0.1:80");
        annotated.initCause(new BindException("Cannot assign requested address"));

        assertThat(Connector.failure(ENDPOINT, TIMEOUT, annotated)).isInstanceOf(LocalResourceException.class);
        assertThat(Connector.failure(ENDPOINT, TIMEOUT, new ConnectException("Connection refused")))
                .isInstanceOf(UpstreamConnectException.class);
    }

    /** What epoll's connect fails with, wrapped with the remote address as Netty's channel does. */
    private static ConnectException epollConnectFailure(int errno) {
        try {
            Errors.throwConnectException("connect", -errno);
            throw new AssertionError("no failure");
        } catch (IOException e) {
            ConnectException annotated = new ConnectException(e.getMessage() + ": /127.0.0.1:80");
            annotated.initCause(e);
            return annotated;
        }
    }
}
