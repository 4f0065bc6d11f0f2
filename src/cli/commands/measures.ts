import type { Command } from 'commander'
import { TrecscoreError } from '../../entries/errors.js'
import { findMeasureSpec, MEASURES, rangeText, suggestMeasures } from '../../entries/measures.js'

/** `trecscore measures [NAME]`: list the measures, or document one (generated from the registry). */
export function registerMeasures(program: Command): void {
  program
    .command('measures')
    .description('list the measures evaluate knows, or show one with its parameters and formula')
    .argument('[name]', 'a measure family, e.g. nDCG')
    .action((name: string | undefined) => {
      if (!name) {
        const width = Math.max(...[...MEASURES.keys()].map((n) => n.length))
        for (const s of MEASURES.values())
          process.stdout.write(`${s.name.padEnd(width)}  ${s.summary}\n`)
        process.stdout.write(
          '\nSyntax: Name(param=value,...)@k, e.g. nDCG@10, P(rel=2)@5; trec_eval names (ndcg_cut.10, P.5) work too.\n',
        )
        return
      }
      const spec = findMeasureSpec(name.replace(/[@(].*$/, ''))
      if (!spec) {
        const s = suggestMeasures(name)
        throw new TrecscoreError(
          `unknown measure '${name}'${s.length ? `; did you mean ${s.join(' or ')}?` : ''}`,
          2,
        )
      }
      const lines = [
        `${spec.name}${spec.aliases.length ? ` (also: ${spec.aliases.join(', ')})` : ''}`,
        `  ${spec.summary}`,
        `  formula: ${spec.formula}`,
        `  @: ${spec.at === 'none' ? 'not allowed' : spec.at === 'cutoff' ? 'rank cutoff k (also cutoff=k)' : 'recall level r (also recall=r)'}${spec.atRequired ? ' (required)' : spec.at === 'none' ? '' : ' (optional)'}`,
        `  aggregate over queries: ${spec.aggregate} (and the population standard deviation)`,
        ...(spec.undefinedWhen
          ? [`  undefined (left out of the aggregate) when: ${spec.undefinedWhen}`]
          : []),
        ...(spec.presetAliases?.length
          ? [
              `  also spelled: ${spec.presetAliases
                .map(
                  (a) =>
                    `${a.name} = ${spec.name}(${Object.entries(a.params)
                      .map(
                        ([k, v]) =>
                          `${k}=${v === true ? 'True' : v === false ? 'False' : String(v)}`,
                      )
                      .join(',')})`,
                )
                .join('; ')}`,
            ]
          : []),
        '  parameters:',
        ...Object.entries(spec.params).map(
          ([k, p]) =>
            `    ${k} (${p.type}${p.choices ? `: ${p.choices.join('|')}` : ''}${p.range ? `, ${rangeText(p.range)}` : ''}${p.default !== undefined ? `, default ${String(p.default)}` : ''}): ${p.doc}`,
        ),
      ]
      if (Object.keys(spec.params).length === 0) lines.push('    none')
      process.stdout.write(lines.join('\n') + '\n')
    })
}
