package io.parry.ratelimit.redis.internal;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One {@code EVALSHA} of the GCRA script, read straight into four numbers: no future, no list and no
 * boxed values per request. Lettuce completes it on its I/O thread; the {@link Pipeline} it was sent
 * in hands every answer of a batch to the caller's event loop in one task.
 */
public final class GcraCommand extends Command<String, String, long[]> implements Runnable {
    private final Executor loop;
    private final Reply reply;
    private final AtomicBoolean reported = new AtomicBoolean();
    private Pipeline.Batch batch;

    /**
     * The script for this bucket with these arguments, answering {@code reply} through {@code loop}
     * (the request's view of its event loop, which carries the request's context to the reply).
     */
    public GcraCommand(String bucket, String[] args, Executor loop, Reply reply) {
        super(CommandType.EVALSHA, new Output(), arguments(bucket, args));
        this.loop = loop;
        this.reply = reply;
    }

    /** What the caller is told, on its event loop: the script's four numbers, or why there are none. */
    public interface Reply {
        /** The script answered {@code {granted, remaining, retryAfterMicros, resetMicros}}. */
        void decided(long[] answer);

        /** Redis refused the command or could not be reached; NOSCRIPT included. */
        void failed(Throwable failure);
    }

    @Override
    public void complete() {
        super.complete();
        report();
    }

    @Override
    public boolean completeExceptionally(Throwable failure) {
        boolean changed = super.completeExceptionally(failure);
        report();
        return changed;
    }

    @Override
    public void cancel() {
        super.cancel();
        report();
    }

    void sentIn(Pipeline.Batch batch) {
        this.batch = batch;
    }

    Executor loop() {
        return loop;
    }

    /** Hands the reply to the request's loop: from the batch's task, a task on the same thread. */
    void deliver() {
        loop.execute(this);
    }

    /** Tells the reply, in the request's context. */
    @Override
    public void run() {
        if (exception != null) {
            reply.failed(exception);
        } else if (isCancelled()) {
            reply.failed(new CancellationException("the Redis command was cancelled"));
        } else if (output.hasError()) {
            reply.failed(new RedisCommandExecutionException(output.getError()));
        } else {
            reply.decided(output.get());
        }
    }

    private void report() {
        if (reported.compareAndSet(false, true)) {
            batch.answered();
        }
    }

    private static CommandArgs<String, String> arguments(String bucket, String[] args) {
        return new CommandArgs<>(StringCodec.UTF8)
                .add(GcraScript.SHA1)
                .add(1)
                .addKey(bucket)
                .addValues(args);
    }

    /** The script's array of four integers. */
    private static final class Output extends CommandOutput<String, String, long[]> {
        private int index;

        Output() {
            super(StringCodec.UTF8, new long[4]);
        }

        @Override
        public void set(long integer) {
            if (index < output.length) {
                output[index++] = integer;
            }
        }
    }
}
