package io.parry.validation.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import java.util.HashMap;
import java.util.Map;
import org.hibernate.validator.spi.nodenameprovider.JavaBeanProperty;
import org.hibernate.validator.spi.nodenameprovider.Property;
import org.hibernate.validator.spi.nodenameprovider.PropertyNodeNameProvider;

/**
 * Names properties in violation paths as the mapper reads them from JSON ({@code @JsonProperty},
 * naming strategies), so a client sees the field it sent. Each class is introspected once.
 */
public final class JsonPropertyNames implements PropertyNodeNameProvider {
    private final ClassValue<Map<String, String>> names;

    public JsonPropertyNames(ObjectMapper mapper) {
        this.names = new ClassValue<>() {
            @Override
            protected Map<String, String> computeValue(Class<?> type) {
                Map<String, String> byJavaName = new HashMap<>();
                for (BeanPropertyDefinition property : mapper.getDeserializationConfig()
                        .introspect(mapper.constructType(type))
                        .findProperties()) {
                    byJavaName.put(property.getInternalName(), property.getName());
                }
                return byJavaName;
            }
        };
    }

    @Override
    public String getName(Property property) {
        if (property instanceof JavaBeanProperty) {
            Class<?> owner = ((JavaBeanProperty) property).getDeclaringClass();
            return names.get(owner).getOrDefault(property.getName(), property.getName());
        }
        return property.getName();
    }
}
