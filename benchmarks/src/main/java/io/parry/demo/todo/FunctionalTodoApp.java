package io.parry.demo.todo;

import io.parry.http.HttpMethod;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.MediaType;
import io.parry.json.JsonCodec;
import io.parry.json.JsonEndpoints;
import io.parry.json.JsonResult;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import io.parry.server.Server;
import io.parry.server.cors.CorsFilter;
import io.parry.server.routing.RequestParams;
import io.parry.server.routing.Router;
import io.parry.startup.Startup;
import io.parry.validation.BeanValidator;
import java.util.List;

/**
 * The Todo-Backend service as examples/todo ran it before its annotated controller: these functional
 * routes, as they were in parry-demo, over parry-demo's store and views (hence this package), with no
 * OpenAPI document. Only to compare start-up ({@code TARGET=todo-functional benchmarks/startup.sh}).
 */
public final class FunctionalTodoApp {
    private FunctionalTodoApp() {}

    public static void main(String[] args) {
        Startup.prepare();
        Server.builder()
                .port(Startup.port())
                .handler(of(new TodoStore()))
                .build()
                .start();
    }

    static Handler of(TodoStore store) {
        JsonCodec codec = JsonCodec.ofDefault();
        JsonEndpoints json = JsonEndpoints.builder()
                .codec(codec)
                .validator(BeanValidator.create(codec))
                .maxBodyBytes(64 * 1024)
                .build();
        Router router = Router.builder()
                .get("/", json.syncWithoutBody((ctx, request) -> views(store.all(), BaseUrl.of(request))))
                .post(
                        "/",
                        json.sync(NewTodo.class, (ctx, todo) -> created(ctx, store.add(todo))),
                        route -> route.consumes(MediaType.JSON))
                .delete("/", json.syncWithoutBody((ctx, request) -> {
                    store.deleteAll();
                    return JsonResult.noContent();
                }))
                .get(
                        "/todos/{id}",
                        json.syncWithoutBody((ctx, request) -> TodoView.of(
                                store.find(id(ctx, request)).orElseThrow(FunctionalTodoApp::notFound),
                                BaseUrl.of(request))))
                .patch(
                        "/todos/{id}",
                        json.sync(
                                TodoPatch.class,
                                (ctx, patch) -> TodoView.of(
                                        store.update(id(ctx, ctx.request()), patch)
                                                .orElseThrow(FunctionalTodoApp::notFound),
                                        BaseUrl.of(ctx.request()))))
                .delete("/todos/{id}", json.syncWithoutBody((ctx, request) -> {
                    if (!store.delete(id(ctx, request))) {
                        throw notFound();
                    }
                    return JsonResult.noContent();
                }))
                .build();
        CorsFilter cors = CorsFilter.builder()
                .allowAnyOrigin()
                .allowMethods(HttpMethod.GET, HttpMethod.POST, HttpMethod.PATCH, HttpMethod.DELETE)
                .allowHeaders("content-type")
                .exposeHeaders("location")
                .build();
        return router.with(cors);
    }

    private static JsonResult<TodoView> created(RequestContext ctx, Todo todo) {
        TodoView view = TodoView.of(todo, BaseUrl.of(ctx.request()));
        return JsonResult.created(view.url(), view);
    }

    private static List<TodoView> views(List<Todo> todos, String baseUrl) {
        return todos.stream().map(todo -> TodoView.of(todo, baseUrl)).toList();
    }

    private static long id(RequestContext ctx, io.parry.http.HttpRequest request) {
        return RequestParams.of(ctx, request).pathLong("id");
    }

    private static HttpStatusException notFound() {
        return new HttpStatusException(HttpStatus.NOT_FOUND, "There is no todo at this URL.");
    }
}
