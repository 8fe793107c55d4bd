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
 * added.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Filters {
    /** The filters, the first outermost. */
    Class<? extends Filter>[] value();
}
