package io.parry.proxy;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.server.routing.RequestParams;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Sends each request to one of several handlers in proportion to their weights, such as proxies to a
 * stable and a canary upstream group (Envoy's weighted clusters, Spring Cloud Gateway's {@code
 * Weight}).
 *
 * <pre>{@code
 * Handler canaryRelease = TrafficSplit.builder()
 *         .to(ProxyHandler.builder(stable).build(), 90)
 *         .to(ProxyHandler.builder(canary).build(), 10)
 *         .stickyCookie("session")
 *         .build();
 * }</pre>
 *
 * <p>The choice is counted, not drawn: every run of as many requests as the weights add up to goes
 * exactly by the weights, interleaved as evenly as smooth weighted round robin spreads them (weights 2
 * and 1 give a, b, a). A sticky key (a header or a cookie) makes the choice a hash of its value
 * instead, so one user stays on one side while the users as a whole are split by the weights;
 * requests without it are counted. A weight of 0 takes no requests. Thread-safe; a choice costs one
 * atomic increment, or a hash of the key.
 *
 * <p>A side added with a rotation check ({@link Builder#to(Handler, int, BooleanSupplier)}, such as
 * {@code upstream::hasHealthyEndpoint}) that has nothing in rotation when chosen passes its request to
 * the next side of non-zero weight that has: a sticky user whose side lost every endpoint is served by
 * the other side instead of getting 503 until that side recovers. When no side is in rotation, the
 * chosen side answers as it would.
 */
public final class TrafficSplit implements Handler {
    /** The most the weights may add up to: a split to a hundredth of a percent, in a table of at most 20 KB. */
    public static final int MAX_TOTAL_WEIGHT = 10_000;

    private final Handler[] handlers;
    private final BooleanSupplier[] inRotation;
    private final boolean[] weighted;
    /** One cycle of choices: the index of the handler for each request of a run. */
    private final short[] cycle;

    private final String stickyHeader;
    private final String stickyCookie;
    private final AtomicLong count = new AtomicLong();

    private TrafficSplit(Builder builder) {
        this.handlers = builder.handlers.toArray(new Handler[0]);
        this.inRotation = builder.inRotation.toArray(new BooleanSupplier[0]);
        this.weighted = new boolean[handlers.length];
        for (int i = 0; i < weighted.length; i++) {
            weighted[i] = builder.weights.get(i) > 0;
        }
        this.cycle = cycle(builder.weights.stream().mapToInt(Integer::intValue).toArray());
        this.stickyHeader = builder.stickyHeader;
        this.stickyCookie = builder.stickyCookie;
    }

    /** A builder for a split. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) throws Exception {
        return handlers[inRotation(choose(ctx, request))].handle(ctx, request);
    }

    /** The chosen side if it is in rotation, else the next weighted one that is, else the chosen side. */
    private int inRotation(int chosen) {
        if (inRotation[chosen].getAsBoolean()) {
            return chosen;
        }
        for (int step = 1; step < handlers.length; step++) {
            int side = (chosen + step) % handlers.length;
            if (weighted[side] && inRotation[side].getAsBoolean()) {
                return side;
            }
        }
        return chosen;
    }

    /** The index, in the order they were added, of the handler that takes this request. */
    private int choose(RequestContext ctx, HttpRequest request) {
        String key = stickyKey(ctx, request);
        if (key != null) {
            return cycle[Math.floorMod(mix(key.hashCode()), cycle.length)];
        }
        return cycle[(int) Long.remainderUnsigned(count.getAndIncrement(), cycle.length)];
    }

    private String stickyKey(RequestContext ctx, HttpRequest request) {
        if (stickyHeader != null) {
            return request.headers().get(stickyHeader);
        }
        return stickyCookie == null ? null : RequestParams.of(ctx, request).cookie(stickyCookie, null);
    }

    /** Spreads similar keys (user-1, user-2...) over the cycle: the finaliser of MurmurHash3. */
    private static int mix(int hash) {
        int h = hash;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    /** Smooth weighted round robin (as in nginx's upstream module) over one run of the total weight. */
    private static short[] cycle(int[] weights) {
        int total = 0;
        for (int weight : weights) {
            total += weight;
        }
        short[] cycle = new short[total];
        int[] current = new int[weights.length];
        for (int slot = 0; slot < total; slot++) {
            int best = -1;
            for (int i = 0; i < weights.length; i++) {
                current[i] += weights[i];
                if (weights[i] > 0 && (best < 0 || current[i] > current[best])) {
                    best = i;
                }
            }
            current[best] -= total;
            cycle[slot] = (short) best;
        }
        return cycle;
    }

    /** Builds a {@link TrafficSplit}; not thread-safe. */
    public static final class Builder {
        private final List<Handler> handlers = new ArrayList<>();
        private final List<Integer> weights = new ArrayList<>();
        private final List<BooleanSupplier> inRotation = new ArrayList<>();
        private String stickyHeader;
        private String stickyCookie;

        private Builder() {}

        /** Adds a handler that takes {@code weight} parts of the requests (0 to {@value #MAX_TOTAL_WEIGHT}). */
        public Builder to(Handler handler, int weight) {
            return to(handler, weight, () -> true);
        }

        /**
         * Adds a handler that takes {@code weight} parts of the requests while {@code inRotation} says it
         * has somewhere to send them (such as {@code upstream::hasHealthyEndpoint}); asked on the event
         * loop for each request chosen for this side, so it must be cheap and must not block.
         */
        public Builder to(Handler handler, int weight, BooleanSupplier inRotation) {
            requireNonNull(handler, "handler");
            requireNonNull(inRotation, "inRotation");
            if (weight < 0 || weight > MAX_TOTAL_WEIGHT) {
                throw new IllegalArgumentException("weight: " + weight + " (expected: 0 to " + MAX_TOTAL_WEIGHT + ")");
            }
            handlers.add(handler);
            weights.add(weight);
            this.inRotation.add(inRotation);
            return this;
        }

        /** Chooses by the first value of this header field when a request has it; replaces a sticky cookie. */
        public Builder stickyHeader(String name) {
            this.stickyHeader = requireNonNull(name, "name");
            this.stickyCookie = null;
            return this;
        }

        /** Chooses by the value of this cookie when a request has it; replaces a sticky header. */
        public Builder stickyCookie(String name) {
            this.stickyCookie = requireNonNull(name, "name");
            this.stickyHeader = null;
            return this;
        }

        /**
         * The split.
         *
         * @throws IllegalArgumentException when there is no handler, the weights add up to 0 or to more
         *     than {@value #MAX_TOTAL_WEIGHT}
         */
        public TrafficSplit build() {
            if (handlers.isEmpty()) {
                throw new IllegalArgumentException("handlers: none (expected: at least one, added with to)");
            }
            int total = weights.stream().mapToInt(Integer::intValue).sum();
            if (total < 1 || total > MAX_TOTAL_WEIGHT) {
                throw new IllegalArgumentException(
                        "weights: " + weights + " (expected: a total from 1 to " + MAX_TOTAL_WEIGHT + ")");
            }
            if (handlers.size() > Short.MAX_VALUE) {
                throw new IllegalArgumentException(
                        "handlers: " + handlers.size() + " (expected: at most " + Short.MAX_VALUE + ")");
            }
            return new TrafficSplit(this);
        }
    }
}
