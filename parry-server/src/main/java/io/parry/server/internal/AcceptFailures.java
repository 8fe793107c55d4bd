package io.parry.server.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.parry.server.Rejection;
import io.parry.transport.spi.LocalResources;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The listener's last handler: an accept that failed for want of file descriptors becomes one counted
 * rejection and, at most every ten seconds, one line saying what happened, instead of Netty's WARN
 * with a stack trace for each failure. Netty's acceptor, before this handler, has already paused
 * accepting for a second, so the connection waits in the backlog rather than spinning the loop.
 *
 * <p>Runs on the listener's event loop only.
 */
final class AcceptFailures extends ChannelInboundHandlerAdapter {
    private static final long REPORT_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final RejectionCounters rejections;
    private final Consumer<String> report;
    private long failedSinceReport;
    private long lastReportNanos;
    private boolean reportedOnce;

    AcceptFailures(RejectionCounters rejections, Consumer<String> report) {
        this.rejections = rejections;
        this.report = report;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!LocalResources.isOutOfFileDescriptors(cause)) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        rejections.record(Rejection.NO_FILE_DESCRIPTORS, ctx.channel().localAddress(), cause.getMessage());
        failedSinceReport++;
        long now = ctx.executor().ticker().nanoTime();
        if (!reportedOnce || now - lastReportNanos >= REPORT_EVERY_NANOS) {
            reportedOnce = true;
            lastReportNanos = now;
            report.accept("Cannot accept connections on " + ctx.channel().localAddress()
                    + ": out of file descriptors (" + cause.getMessage() + "); " + failedSinceReport
                    + " accept(s) failed since the last report; waiting connections stay in the backlog."
                    + " Raise the open-files limit (ulimit -n) or lower the connection limit");
            failedSinceReport = 0;
        }
    }
}
