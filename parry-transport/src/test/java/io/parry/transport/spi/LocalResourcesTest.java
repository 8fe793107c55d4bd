package io.parry.transport.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Errors;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.SocketException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The failures each transport reports, as Netty and the JDK make them: epoll's and io_uring's from
 * Netty's own error numbers, wrapped with the remote address as Netty wraps a connect's failure.
 */
class LocalResourcesTest {
    private static final int EADDRNOTAVAIL = 99;
    private static final int ECONNREFUSED = 111;
    private static final int ECONNRESET = 104;

    @Test
    void tellsNoLocalPortOnEpollFromARefusedConnect() {
        Assumptions.assumeTrue(Epoll.isAvailable(), "needs Linux with Netty's epoll transport");

        Throwable noPort = catchThrowable(() -> Errors.throwConnectException("connect", -EADDRNOTAVAIL));
        Throwable refused = catchThrowable(() -> Errors.throwConnectException("connect", -ECONNREFUSED));

        assertThat(LocalResources.isOutOfLocalPorts(noPort)).isTrue();
        assertThat(LocalResources.isOutOfLocalPorts(new ConnectException(noPort.getMessage()).initCause(noPort)))
                .isTrue();
        assertThat(LocalResources.isOutOfLocalPorts(refused)).isFalse();
    }

    @Test
    void tellsNoLocalPortOnNioBehindNettysSocketExceptionWrapper() {
        SocketException annotated = new SocketException("Cannot assign requested address: /127.0.0.1:80");
        annotated.initCause(new BindException("Cannot assign requested address"));

        assertThat(LocalResources.isOutOfLocalPorts(annotated)).isTrue();
        assertThat(LocalResources.isOutOfLocalPorts(new ConnectException("Connection refused")))
                .isFalse();
    }

    @Test
    void tellsNoFileDescriptorOnEpollByErrorNumberAndOnNioByMessage() {
        Assumptions.assumeTrue(Epoll.isAvailable(), "needs Linux with Netty's epoll transport");

        assertThat(LocalResources.isOutOfFileDescriptors(Errors.newIOException("accept", -24)))
                .isTrue();
        assertThat(LocalResources.isOutOfFileDescriptors(Errors.newIOException("accept", -23)))
                .isTrue();
        assertThat(LocalResources.isOutOfFileDescriptors(Errors.newIOException("read", -ECONNRESET)))
                .isFalse();
        assertThat(LocalResources.isOutOfFileDescriptors(new IOException("Too many open files")))
                .isTrue();
        assertThat(LocalResources.isOutOfFileDescriptors(new IOException("Connection reset by peer")))
                .isFalse();
    }
}
