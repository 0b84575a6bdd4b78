"""40 random 8-card endings, every strain, both rankings, every leader
(benchmarks/data/endings.pbn): one value each, checked against DDS."""
import bench_support as bs


def test_endings(benchmark):
    tasks = bs.pick("endings", benchmark)
    results = bs.run(benchmark, tasks, rounds=20)
    bs.check_dds(tasks, results)
