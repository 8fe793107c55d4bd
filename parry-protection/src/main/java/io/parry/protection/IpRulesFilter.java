package io.parry.protection;

import static java.util.Objects.requireNonNull;

import io.parry.http.AddressBlocks;
import io.parry.http.ClientAddress;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.Problem;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Admits or refuses a request by its client's address: IPv4 and IPv6 CIDR blocks to allow and to
 * deny. Immutable and shared by all requests.
 *
 * <pre>{@code
 * IpRulesFilter office = IpRulesFilter.builder()
 *         .allow(List.of("10.0.0.0/8", "2001:db8::/32"))
 *         .deny(List.of("10.6.6.0/24"))
 *         .trustedProxies(List.of("192.168.0.10"))
 *         .build();
 * Handler admin = router.with(office);
 * }</pre>
 *
 * <ul>
 *   <li>The client's address is the connection's peer, unless the peer is one of the {@code
 *       trustedProxies}: then it is the rightmost {@code X-Forwarded-For} entry that is not a trusted
 *       proxy, since only the entries trusted proxies appended can be believed. A trusted proxy that
 *       passes on an entry that is not a numeric address makes the client unknown.
 *   <li>A deny block wins over an allow block. With allow blocks, an address in none of them, and an
 *       unknown client, is refused; without them, every address not denied is admitted.
 *   <li>A refused request gets 403 {@code application/problem+json} and never reaches the handler; the
 *       detail does not say which rule refused it.
 * </ul>
 *
 * <p>IPv4-mapped IPv6 addresses and blocks ({@code ::ffff:10.0.0.0/104}) are compared as IPv4. The
 * check runs on the event loop, scanning the blocks in order without allocating beyond the address
 * bytes; it belongs first among protection filters, before authentication.
 */
public final class IpRulesFilter implements Filter {
    private final AddressBlocks allow;
    private final AddressBlocks deny;
    private final AddressBlocks trustedProxies;

    private IpRulesFilter(AddressBlocks allow, AddressBlocks deny, AddressBlocks trustedProxies) {
        this.allow = allow;
        this.deny = deny;
        this.trustedProxies = trustedProxies;
    }

    /** A builder with no rule: every address is admitted until blocks are added. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this filter's settings. */
    public Builder toBuilder() {
        return new Builder().allow(allow.entries()).deny(deny.entries()).trustedProxies(trustedProxies.entries());
    }

    /** The blocks a client must be in, as given; empty means every address. */
    public List<String> allow() {
        return allow.entries();
    }

    /** The blocks refused, as given. */
    public List<String> deny() {
        return deny.entries();
    }

    /** The proxies whose {@code X-Forwarded-For} entries are believed, as given. */
    public List<String> trustedProxies() {
        return trustedProxies.entries();
    }

    /** Whether the request's client may pass these rules. */
    public boolean admits(RequestContext ctx, HttpRequest request) {
        InetAddress client = ClientAddress.behind(trustedProxies, ctx.remoteAddress(), request.headers());
        if (deny.contains(client)) {
            return false;
        }
        return allow.isEmpty() || allow.contains(client);
    }

    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        if (!admits(ctx, request)) {
            return CompletableFuture.completedFuture(Problem.of(HttpStatus.FORBIDDEN)
                    .detail("access from this address is not allowed")
                    .requestId(ctx.requestId())
                    .toResponse());
        }
        return next.handle(ctx, request);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof IpRulesFilter that
                && allow.entries().equals(that.allow.entries())
                && deny.entries().equals(that.deny.entries())
                && trustedProxies.entries().equals(that.trustedProxies.entries());
    }

    @Override
    public int hashCode() {
        return Objects.hash(allow.entries(), deny.entries(), trustedProxies.entries());
    }

    @Override
    public String toString() {
        return "IpRulesFilter[allow=" + allow.entries() + ", deny=" + deny.entries() + ", trustedProxies="
                + trustedProxies.entries() + "]";
    }

    /** Collects the blocks; {@link #build()} parses them. */
    public static final class Builder {
        private List<String> allow = List.of();
        private List<String> deny = List.of();
        private List<String> trustedProxies = List.of();

        private Builder() {}

        /** Addresses and CIDR blocks a client must be in, such as {@code 10.0.0.0/8}; default none (any). */
        public Builder allow(List<String> blocks) {
            this.allow = new ArrayList<>(requireNonNull(blocks, "blocks"));
            return this;
        }

        /** Addresses and CIDR blocks refused even when allowed; default none. */
        public Builder deny(List<String> blocks) {
            this.deny = new ArrayList<>(requireNonNull(blocks, "blocks"));
            return this;
        }

        /** Proxies whose {@code X-Forwarded-For} entries name the client; default none (the peer is the client). */
        public Builder trustedProxies(List<String> blocks) {
            this.trustedProxies = new ArrayList<>(requireNonNull(blocks, "blocks"));
            return this;
        }

        /**
         * The filter.
         *
         * @throws IllegalArgumentException naming the first entry that is not an address or a CIDR block
         */
        public IpRulesFilter build() {
            return new IpRulesFilter(
                    AddressBlocks.parse("allow", allow),
                    AddressBlocks.parse("deny", deny),
                    AddressBlocks.parse("trustedProxies", trustedProxies));
        }
    }
}
