package io.parry.annotations.processor.items;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletionStage;

/** Appends its name to the response's {@code x-filters} field, so tests see which filters ran, in which order. */
public class HeaderFilter implements Filter {
    private final String name;

    public HeaderFilter() {
        this("controller");
    }

    HeaderFilter(String name) {
        this.name = name;
    }

    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        return next.handle(ctx, request).thenApply(response -> {
            String before = response.headers().get("x-filters");
            return response.withHeader("x-filters", before == null ? name : name + "," + before);
        });
    }

    /** The filter a method adds. */
    public static final class MethodFilter extends HeaderFilter {
        public MethodFilter() {
            super("method");
        }
    }
}
