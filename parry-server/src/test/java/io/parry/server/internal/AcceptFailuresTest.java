package io.parry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Errors;
import io.parry.server.Rejection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A listener out of file descriptors fails every accept: each is counted, one line says so at most
 * every ten seconds, and nothing reaches the end of the pipeline, where Netty logs a WARN with a stack
 * trace each time.
 */
class AcceptFailuresTest {
    private static final int EMFILE = 24;

    private final RejectionCounters rejections = new RejectionCounters();
    private final List<String> lines = new ArrayList<>();
    private final EmbeddedChannel listener = new EmbeddedChannel(new AcceptFailures(rejections, lines::add));

    @Test
    void countsEveryAcceptOutOfDescriptorsAndReportsItOnceEveryTenSeconds() {
        listener.freezeTime();
        for (int i = 0; i < 5; i++) {
            listener.pipeline().fireExceptionCaught(outOfFiles());
        }
        listener.checkException();
        listener.advanceTimeBy(10, TimeUnit.SECONDS);
        listener.pipeline().fireExceptionCaught(outOfFiles());

        assertThat(rejections.count(Rejection.NO_FILE_DESCRIPTORS)).isEqualTo(6);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).contains("out of file descriptors", "Too many open files", "1 accept(s) failed");
        assertThat(lines.get(1)).contains("5 accept(s) failed");
        listener.checkException();
    }

    @Test
    void passesOnEveryOtherFailure() {
        listener.pipeline().fireExceptionCaught(new IOException("Connection reset by peer"));

        assertThatThrownBy(listener::checkException).hasMessage("Connection reset by peer");
        assertThat(rejections.count(Rejection.NO_FILE_DESCRIPTORS)).isZero();
        assertThat(lines).isEmpty();
    }

    /** What accept fails with on epoll when no descriptor is left, or on NIO, as the JDK says it. */
    private static IOException outOfFiles() {
        return Epoll.isAvailable() ? Errors.newIOException("accept", -EMFILE) : new IOException("Too many open files");
    }
}
