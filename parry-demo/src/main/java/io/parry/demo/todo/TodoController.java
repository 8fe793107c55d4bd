package io.parry.demo.todo;

import io.parry.annotations.Body;
import io.parry.annotations.Consumes;
import io.parry.annotations.Controller;
import io.parry.annotations.Delete;
import io.parry.annotations.Get;
import io.parry.annotations.Patch;
import io.parry.annotations.PathParam;
import io.parry.annotations.Post;
import io.parry.http.HttpRequest;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.json.JsonResult;
import java.util.List;
import java.util.Optional;

/**
 * The Todo-Backend API (todobackend.com): the root lists, creates and deletes all todos; each todo's
 * URL answers GET, PATCH and DELETE. Its routes are generated at compile time ({@code
 * TodoControllerRoutes}).
 */
@Controller
final class TodoController {
    private final TodoStore store;

    TodoController(TodoStore store) {
        this.store = store;
    }

    /** Lists every todo, by order and then by age. */
    @Get("/")
    List<TodoView> list(HttpRequest request) {
        String baseUrl = BaseUrl.of(request);
        return store.all().stream().map(todo -> TodoView.of(todo, baseUrl)).toList();
    }

    /** Creates a todo; its absolute URL is in {@code Location}. */
    @Post("/")
    @Consumes("application/json")
    JsonResult<TodoView> create(@Body NewTodo todo, HttpRequest request) {
        TodoView view = TodoView.of(store.add(todo), BaseUrl.of(request));
        return JsonResult.created(view.url(), view);
    }

    /** Deletes every todo. */
    @Delete("/")
    void deleteAll() {
        store.deleteAll();
    }

    /** Finds a todo. */
    @Get("/todos/{id}")
    Optional<TodoView> one(@PathParam long id, HttpRequest request) {
        return store.find(id).map(todo -> TodoView.of(todo, BaseUrl.of(request)));
    }

    /** Changes the fields of a todo that the patch holds. */
    @Patch("/todos/{id}")
    Optional<TodoView> update(@PathParam long id, @Body TodoPatch patch, HttpRequest request) {
        return store.update(id, patch).map(todo -> TodoView.of(todo, BaseUrl.of(request)));
    }

    /** Deletes a todo. */
    @Delete("/todos/{id}")
    void delete(@PathParam long id) {
        if (!store.delete(id)) {
            throw new HttpStatusException(HttpStatus.NOT_FOUND, "There is no todo at this URL.");
        }
    }
}
