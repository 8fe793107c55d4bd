package io.parry.annotations.processor.items;

import io.parry.annotations.Blocking;
import io.parry.annotations.Body;
import io.parry.annotations.Consumes;
import io.parry.annotations.Controller;
import io.parry.annotations.CookieParam;
import io.parry.annotations.Default;
import io.parry.annotations.Delete;
import io.parry.annotations.ErrorHandlers;
import io.parry.annotations.Filters;
import io.parry.annotations.Get;
import io.parry.annotations.HeaderParam;
import io.parry.annotations.PathParam;
import io.parry.annotations.Post;
import io.parry.annotations.Produces;
import io.parry.annotations.Put;
import io.parry.annotations.QueryParam;
import io.parry.annotations.RunOn;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.json.JsonResult;
import io.parry.server.RequestContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Items in memory: every kind of parameter, return value, scheduling, filter and error handler. */
@Controller("/items")
@Filters(HeaderFilter.class)
@ErrorHandlers(GoneErrors.class)
final class ItemController {
    private final Map<Long, Item> items = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    /** Lists the items. Of any kind. */
    @Get
    List<Item> list(
            @QueryParam @Default("10") int limit,
            @QueryParam Optional<Kind> kind,
            @HeaderParam("x-tenant") Optional<String> tenant,
            @CookieParam("session") Optional<UUID> session) {
        return items.values().stream()
                .filter(item -> kind.isEmpty() || item.kind() == kind.get())
                .limit(limit)
                .toList();
    }

    /** Finds one item by its id. */
    @Get("/{id}")
    Optional<Item> one(@PathParam long id) {
        return Optional.ofNullable(items.get(id));
    }

    /** Adds an item. */
    @Post
    JsonResult<Item> create(@Body NewItem item) {
        long id = ids.incrementAndGet();
        Item created = new Item(id, item.name(), item.kind());
        items.put(id, created);
        return JsonResult.created("/items/" + id, created);
    }

    @Put("/{id}")
    @Consumes("application/json")
    @Produces("application/json")
    CompletionStage<Optional<Item>> replace(@PathParam("id") long key, @Body NewItem item) {
        return CompletableFuture.completedFuture(
                Optional.ofNullable(items.computeIfPresent(key, (id, old) -> new Item(id, item.name(), item.kind()))));
    }

    @Delete("/{id}")
    void delete(@PathParam long id) {
        items.remove(id);
    }

    @Get("/required")
    String required(@QueryParam int count, @HeaderParam("x-tenant") String tenant) {
        return tenant + ":" + count;
    }

    @Get("/raw")
    @Filters(HeaderFilter.MethodFilter.class)
    HttpResponse raw() {
        return HttpResponse.ofText("raw");
    }

    @Get("/thread")
    @Blocking
    String worker(RequestContext ctx) {
        return Thread.currentThread().getName();
    }

    @Get("/executor")
    @RunOn("items")
    String executor() {
        return Thread.currentThread().getName();
    }

    @Get("/teapot")
    @ErrorHandlers(TeapotErrors.class)
    String teapot() {
        throw new UnsupportedOperationException("no tea");
    }

    @Get("/gone")
    String gone() {
        throw new IllegalStateException("gone");
    }

    /** Takes an item for later: the method builds the whole answer from the decoded, validated body. */
    @Post("/later")
    HttpResponse later(@Body NewItem item) {
        return HttpResponse.ofText(item.name())
                .withStatus(HttpStatus.ACCEPTED)
                .withHeader("x-kind", item.kind().name());
    }

    @Put("/later/{id}")
    CompletionStage<HttpResponse> laterAt(@PathParam long id, @Body NewItem item) {
        return CompletableFuture.completedFuture(
                HttpResponse.ofText(id + ":" + item.name()).withStatus(HttpStatus.ACCEPTED));
    }

    @Get("/status")
    CompletableFuture<HttpResponse> status() {
        return CompletableFuture.completedFuture(HttpResponse.of(HttpStatus.ACCEPTED));
    }
}
