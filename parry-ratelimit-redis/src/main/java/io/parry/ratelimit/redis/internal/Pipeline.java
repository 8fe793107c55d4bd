package io.parry.ratelimit.redis.internal;

import io.lettuce.core.api.StatefulRedisConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The commands one event loop makes while it runs, sent to Redis in one write when its current work is
 * done, and handed back to it in one task once the last reply of the batch is in (Redis answers a
 * connection's commands in order). Per request, this saves a task handed to Lettuce's I/O thread, a
 * write and flush of its own, and a task handed back across threads: what made a round trip per
 * request dear. Used only by its loop's thread.
 */
public final class Pipeline {
    private final Runnable flush = this::flush;
    private StatefulRedisConnection<String, String> connection;
    private List<GcraCommand> pending = new ArrayList<>();

    /** Sends the command on this connection with the others this loop makes before it flushes. */
    public void send(StatefulRedisConnection<String, String> on, GcraCommand command) {
        if (connection != on && !pending.isEmpty()) {
            flush();
        }
        connection = on;
        pending.add(command);
        if (pending.size() == 1) {
            command.loop().execute(flush);
        }
    }

    /** Sends the command at once, alone: for a caller that is not on its loop's thread. */
    public static void sendNow(StatefulRedisConnection<String, String> on, GcraCommand command) {
        dispatch(on, List.of(command));
    }

    private void flush() {
        List<GcraCommand> commands = pending;
        if (commands.isEmpty()) {
            return;
        }
        pending = new ArrayList<>(commands.size());
        dispatch(connection, commands);
    }

    private static void dispatch(StatefulRedisConnection<String, String> connection, List<GcraCommand> commands) {
        Batch batch = new Batch(commands);
        for (int i = 0; i < commands.size(); i++) {
            commands.get(i).sentIn(batch);
        }
        try {
            connection.dispatch(commands);
        } catch (RuntimeException e) {
            // Refused before it was written (disconnected, queue full): each command fails now.
            for (int i = 0; i < commands.size(); i++) {
                commands.get(i).completeExceptionally(e);
            }
        }
    }

    /** The commands of one write; hands their replies to their loop once all are in. */
    static final class Batch implements Runnable {
        private final List<GcraCommand> commands;
        private final AtomicInteger unanswered;

        Batch(List<GcraCommand> commands) {
            this.commands = commands;
            this.unanswered = new AtomicInteger(commands.size());
        }

        void answered() {
            if (unanswered.decrementAndGet() == 0) {
                commands.get(0).loop().execute(this);
            }
        }

        @Override
        public void run() {
            for (int i = 0; i < commands.size(); i++) {
                commands.get(i).deliver();
            }
        }
    }
}
