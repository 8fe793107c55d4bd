package io.parry.annotations;

import io.parry.server.Filter;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Filters around the route: a controller's wrap each of its routes, outside a method's own. Each
 * class needs a constructor without parameters; one instance per class is made when the routes are
 * added. A filter that needs settings (an authentication filter with its issuer and keys, say) is
 * named instead, and given by that name when the routes are made ({@link ControllerRoutes#named}).
 *
 * <pre>{@code
 * @Delete("/{id}")
 * @Filters(named = "admin")               // new TodoControllerRoutes(...).named(Map.of("admin", jwt))
 * void delete(@PathParam long id) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Filters {
    /** The filters made from their class, the first outermost. */
    Class<? extends Filter>[] value() default {};

    /**
     * The names of filters given when the routes are made, the first outermost; they sit outside the
     * filters of {@link #value()}. A name that is not given fails {@link ControllerRoutes#addTo}.
     */
    String[] named() default {};
}
