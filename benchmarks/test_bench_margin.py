"""The random deals where whist-solve's lead over bridge-solver is thinnest
(benchmarks/data/margin.pbn): full tables, checked against DDS."""
import bench_support as bs


def test_margin_deals(benchmark):
    tasks = bs.pick("margin", benchmark)
    results = bs.run(benchmark, tasks)
    assert bs.check_dds(tasks, results) in (0, 20 * len(tasks))
