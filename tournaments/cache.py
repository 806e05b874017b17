"""The cache backend: Django's Redis cache, keeping its redis-py clients.

Django's Redis cache makes a new redis-py client for every cache call, and redis-py's
client builds its table of response callbacks each time it is made: some 0.2 ms of CPU a
call, more than the call's round trip to Redis. A table's every write reads the code
throttle's memory and moves the live pages' mark, so this keeps one client per
connection pool (redis-py's clients are safe to share between threads; the pool gives
each command its own connection).
"""

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.utils.functional import cached_property


class _KeptClients(RedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients.setdefault(
                index, self._client(connection_pool=self._get_connection_pool(write)))
        return client


class RedisCache(DjangoRedisCache):
    @cached_property
    def _cache(self):
        return _KeptClients(self._servers, **self._options)
