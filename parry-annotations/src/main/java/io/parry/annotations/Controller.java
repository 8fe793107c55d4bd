package io.parry.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class whose annotated methods become routes: the processor generates {@code <Class>Routes}
 * beside it, which adds them to a {@link io.parry.server.routing.Router.Builder}. The class and its
 * route methods must not be private; nothing is looked up by reflection.
 *
 * <pre>{@code
 * @Controller("/todos")
 * final class TodoController {
 *     @Get("/{id}")
 *     Optional<Todo> one(@PathParam long id) { return store.find(id); }
 * }
 * Router.Builder router = Router.builder();
 * TodoControllerRoutes.of(new TodoController()).addTo(router);
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Controller {
    /** The path prefix of every route of the class, such as {@code /todos}; empty for none. */
    String value() default "";
}
