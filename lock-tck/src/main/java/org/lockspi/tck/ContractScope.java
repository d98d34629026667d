package org.lockspi.tck;

import java.lang.reflect.Method;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Which contracts a TCK class runs: a class extending {@link EnsembleProviderTck} runs the ensemble contracts
 * (§19) alone, against its replicated backend; every other {@link LockProviderTck} runs everything else against
 * its single server. A contract left to the other class is reported as disabled, with the reason, never as
 * passed; a provider whose server has no replicated form (Redis here, PostgreSQL) has no ensemble class.
 */
final class ContractScope implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<Method> method = context.getTestMethod();
        if (method.isEmpty()) {
            return ConditionEvaluationResult.enabled("a TCK class");
        }
        boolean ensembleClass = context.getTestClass().map(EnsembleProviderTck.class::isAssignableFrom).orElse(false);
        if (context.getTestClass().map(c -> KitRules.inScope(method.get(), c)).orElse(true)) {
            return ConditionEvaluationResult.enabled(ensembleClass ? "an ensemble contract (§19)" : "a contract");
        }
        return ConditionEvaluationResult.disabled(ensembleClass
                ? "the ensemble class runs §19 only; the provider's main TCK class runs this contract against a "
                        + "single server"
                : "§19 needs a replicated server: a class extending EnsembleProviderTck runs it (docs/spec.md §19)");
    }
}
