package io.parry.server.accesslog;

import java.util.function.Consumer;

/** Hands each line as a string to a consumer, such as a logger, one at a time. */
final class ConsumerSink implements LineSink {
    private final Consumer<String> consumer;

    ConsumerSink(Consumer<String> consumer) {
        this.consumer = consumer;
    }

    @Override
    public void line(StringBuilder line) {
        consumer.accept(line.toString());
    }

    @Override
    public void endOfBatch() {}
}
