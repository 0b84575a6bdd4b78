"""Full double-dummy tables (5 strains x 4 leaders, uptown) of the 20
random deals of benchmarks/data/random.pbn; every value checked against DDS."""
import bench_support as bs


def test_random_tables(benchmark):
    tasks = bs.pick("random", benchmark)
    results = bs.run(benchmark, tasks)
    bs.check_dds(tasks, results)
