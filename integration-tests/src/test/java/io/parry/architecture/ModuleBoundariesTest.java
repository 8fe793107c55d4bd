package io.parry.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Each module's {@code internal} packages are its own: no other module's main code may use them. What
 * another module needs is public API or a documented {@code spi} package. The modules are told apart by
 * the package after {@code io.parry} ({@code io.parry.server.routing.internal} belongs to {@code
 * server}). Test code may reach into its own module's internals; the benchmarks module is not checked.
 */
class ModuleBoundariesTest {
    /** Every main module of the build; a new module joins this list and the test's dependencies. */
    private static final Set<String> MODULES = Set.of(
            "http",
            "transport",
            "server",
            "testing",
            "json",
            "validation",
            "annotations",
            "openapi",
            "client",
            "proxy",
            "protection",
            "auth",
            "ratelimit",
            "micrometer",
            "opentelemetry",
            "startup",
            "demo",
            "gateway");

    private static final JavaClasses MAIN_CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.parry");

    @Test
    void importsTheMainClassesOfEveryModule() {
        Set<String> found = new TreeSet<>();
        for (JavaClass type : MAIN_CLASSES) {
            found.add(moduleOf(type.getPackageName()));
        }
        assertThat(found)
                .containsAll(MODULES.stream().filter(m -> !m.equals("demo")).toList());
    }

    @Test
    void noModuleUsesAnotherModulesInternalPackages() {
        ArchRule rule = ArchRuleDefinition.classes()
                .that()
                .resideOutsideOfPackage("io.parry.benchmarks..")
                .should(useNoInternalsOfOtherModules());
        rule.check(MAIN_CLASSES);
    }

    private static ArchCondition<JavaClass> useNoInternalsOfOtherModules() {
        return new ArchCondition<>("use no other module's internal packages") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                String module = moduleOf(origin.getPackageName());
                for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                    String target = dependency.getTargetClass().getPackageName();
                    if (target.startsWith("io.parry.")
                            && isInternal(target)
                            && !moduleOf(target).equals(module)) {
                        events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
                    }
                }
            }
        };
    }

    private static boolean isInternal(String packageName) {
        return packageName.endsWith(".internal") || packageName.contains(".internal.");
    }

    /** {@code io.parry.server.routing.internal} -> {@code server}. */
    private static String moduleOf(String packageName) {
        String rest = packageName.substring("io.parry.".length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }
}
